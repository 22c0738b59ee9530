//! `advisor init`: opt a workspace in by writing a commented
//! `.advisor/config.toml` (and a `.gitignore` for the session state).

use std::path::PathBuf;
use std::process::ExitCode;

use advisor::config::{CONFIG_PATH, STARTER_CONFIG};
use clap::Args;

/// Arguments of `advisor init`.
#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// The workspace root (default: the current directory).
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Overwrite an existing config.
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(args: &InitArgs) -> ExitCode {
    let path = args.dir.join(CONFIG_PATH);
    if path.exists() && !args.force {
        eprintln!(
            "advisor init: {} already exists; pass --force to overwrite it",
            path.display()
        );
        return ExitCode::from(1);
    }
    let dir = args.dir.join(".advisor");
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, STARTER_CONFIG))
        .and_then(|()| {
            let ignore = dir.join(".gitignore");
            if ignore.exists() {
                Ok(())
            } else {
                std::fs::write(ignore, "state/\n")
            }
        });
    match written {
        Ok(()) => {
            println!("wrote {}: this workspace now opts in to the advisor", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("advisor init: cannot write {}: {e}", path.display());
            ExitCode::from(2)
        }
    }
}
