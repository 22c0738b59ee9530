//! Writing a command's output to stdout, where a reader that stops early
//! (`advisor eval --json … | head`) ends the command quietly instead of with
//! a panic.
//!
//! Owns [`outln!`] and [`out!`], the only way the commands print to stdout
//! (the hook and `replay` write through their own handles and already treat
//! a failed write as "nobody reads"). A closed pipe exits with status 0, as
//! ripgrep does: the reader got what it asked for. Any other write error is
//! reported once on stderr and exits with status 2. Must not decide what is
//! printed or escape it: that is [`terminal`](crate::terminal) and
//! [`json_out`](crate::json_out).

use std::fmt;
use std::io::{self, Write};

/// `println!` for the commands' output: see the [module docs](self).
macro_rules! outln {
    () => { $crate::stdout::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::stdout::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` for the commands' output: see the [module docs](self).
macro_rules! out {
    ($($arg:tt)*) => { $crate::stdout::write(format_args!($($arg)*)) };
}

pub(crate) use {out, outln};

/// Writes `args` to stdout and flushes; on a closed pipe the process exits
/// with status 0, on any other error with status 2 after one stderr line.
pub(crate) fn write(args: fmt::Arguments<'_>) {
    let mut stdout = io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        exit_on(&e);
    }
}

fn exit_on(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    // the error's kind only: its text can carry a path the user did not ask to see
    eprintln!("advisor: cannot write the output ({:?})", e.kind());
    std::process::exit(2);
}
