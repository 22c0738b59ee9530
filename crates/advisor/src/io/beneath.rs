//! Opening files and directories beneath a root, race-free.
//!
//! Owns [`Beneath`], the one way the crate and its hosts open a path that
//! someone else named relative to a directory they trust (the MCP server's
//! `transcript`, the model reviewer's workspace tools): the path is taken
//! apart lexically (an absolute path or a `..` component is refused before
//! anything is opened), then walked one component at a time from the root's
//! descriptor with `openat(…, O_NOFOLLOW)`, so no symbolic link anywhere on
//! the way is followed and nothing renamed or swapped between a check and a
//! read can redirect it: the descriptor that was checked is the one read.
//! Files must be regular (a FIFO is opened non-blocking and refused without
//! waiting for a writer); reads are capped. Must not interpret what it reads,
//! and must not decide which names are secret (the callers' deny-lists do).
//!
//! On platforms other than Unix the walk checks each component with
//! `symlink_metadata` before opening it by name, which refuses the same paths
//! but is not free of races; the crate's hosts run on Unix.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// A directory that paths are opened beneath. Cheap to hold; every open goes
/// through its descriptor.
#[derive(Debug)]
pub struct Beneath {
    #[cfg(unix)]
    dir: std::os::fd::OwnedFd,
    #[cfg(not(unix))]
    dir: PathBuf,
}

/// Why a path could not be opened beneath the root. Its `Display` names the
/// path as given and the reason, never any content.
#[derive(Debug)]
pub struct BeneathError {
    path: PathBuf,
    kind: BeneathErrorKind,
}

/// What went wrong opening a path beneath the root.
#[derive(Debug)]
#[non_exhaustive]
pub enum BeneathErrorKind {
    /// The path is absolute (or has a drive prefix).
    Absolute,
    /// The path has a `..` component.
    Parent,
    /// A component of the path (the last included) is a symbolic link.
    Symlink,
    /// The path names nothing.
    NotFound,
    /// The path names something other than a regular file (a directory,
    /// FIFO, device or socket) where a file was wanted.
    NotRegular,
    /// A component names something other than a directory where one was
    /// wanted.
    NotDirectory,
    /// The file is longer than the cap.
    TooLarge {
        /// The cap, in bytes.
        limit: u64,
    },
    /// Any other I/O error.
    Io(io::Error),
}

impl BeneathError {
    /// The path as it was given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What went wrong.
    pub fn kind(&self) -> &BeneathErrorKind {
        &self.kind
    }

    fn new(path: &Path, kind: BeneathErrorKind) -> BeneathError {
        BeneathError {
            path: path.to_path_buf(),
            kind,
        }
    }

    fn io(path: &Path, e: io::Error) -> BeneathError {
        let kind = match e.kind() {
            io::ErrorKind::NotFound => BeneathErrorKind::NotFound,
            _ => BeneathErrorKind::Io(e),
        };
        BeneathError::new(path, kind)
    }
}

impl fmt::Display for BeneathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        match &self.kind {
            BeneathErrorKind::Absolute => {
                write!(f, "{p}: an absolute path; only paths relative to the root are opened")
            }
            BeneathErrorKind::Parent => write!(f, "{p}: a `..` component; only paths beneath the root are opened"),
            BeneathErrorKind::Symlink => write!(f, "{p}: passes through a symbolic link; refused"),
            BeneathErrorKind::NotFound => write!(f, "{p}: no such file or directory"),
            BeneathErrorKind::NotRegular => write!(f, "{p}: not a regular file; refused"),
            BeneathErrorKind::NotDirectory => write!(f, "{p}: not a directory"),
            BeneathErrorKind::TooLarge { limit } => write!(f, "{p}: larger than the {limit}-byte cap; refused"),
            BeneathErrorKind::Io(e) => write!(f, "{p}: {e}"),
        }
    }
}

impl std::error::Error for BeneathError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            BeneathErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// What a directory entry is, as the directory says (links not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (never followed).
    Symlink,
    /// A FIFO, socket, device or anything else.
    Other,
}

/// One entry of a directory opened with [`Beneath::open_dir`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The entry's name (one component).
    pub name: OsString,
    /// What it is.
    pub kind: EntryKind,
}

/// The components of `rel`, refusing an absolute path and `..`; `.` is
/// dropped. An empty result names the root itself.
fn components(rel: &Path) -> Result<Vec<&std::ffi::OsStr>, BeneathError> {
    let mut out = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(name) => out.push(name),
            Component::CurDir => {}
            Component::ParentDir => return Err(BeneathError::new(rel, BeneathErrorKind::Parent)),
            Component::RootDir | Component::Prefix(_) => {
                return Err(BeneathError::new(rel, BeneathErrorKind::Absolute));
            }
        }
    }
    Ok(out)
}

impl Beneath {
    /// Opens the directory `root` (a trusted path: links in it are followed)
    /// as the root that later paths are opened beneath.
    pub fn open(root: &Path) -> io::Result<Beneath> {
        imp::open_root(root).map(|dir| Beneath { dir })
    }

    /// Opens the regular file `rel` beneath the root for reading: no absolute
    /// path, no `..`, no symbolic link at any component; a FIFO, device,
    /// socket or directory is refused without blocking on it.
    pub fn open_file(&self, rel: &Path) -> Result<File, BeneathError> {
        let parts = components(rel)?;
        let Some((last, dirs)) = parts.split_last() else {
            return Err(BeneathError::new(rel, BeneathErrorKind::NotRegular));
        };
        let dir = imp::walk(&self.dir, rel, dirs)?;
        let file = imp::open_leaf(dir.as_ref().unwrap_or(&self.dir), rel, last)?;
        let meta = file.metadata().map_err(|e| BeneathError::io(rel, e))?;
        if !meta.is_file() {
            return Err(BeneathError::new(rel, BeneathErrorKind::NotRegular));
        }
        Ok(file)
    }

    /// Reads the whole regular file `rel` beneath the root, refusing one of
    /// more than `limit` bytes (checked on the open descriptor, and again
    /// while reading, so a file that grows is still refused).
    pub fn read_file(&self, rel: &Path, limit: u64) -> Result<Vec<u8>, BeneathError> {
        let file = self.open_file(rel)?;
        read_capped(file, rel, limit)
    }

    /// Opens the directory `rel` beneath the root (the root itself for an
    /// empty path or `.`) as a new root, with the same refusals as
    /// [`open_file`](Self::open_file).
    pub fn open_dir(&self, rel: &Path) -> Result<Beneath, BeneathError> {
        let parts = components(rel)?;
        match imp::walk(&self.dir, rel, &parts)? {
            Some(dir) => Ok(Beneath { dir }),
            None => self.try_clone().map_err(|e| BeneathError::io(rel, e)),
        }
    }

    /// The entries of this directory (without `.` and `..`), at most `limit`
    /// of them, sorted by name; the second value says whether more were left
    /// out.
    pub fn entries(&self, limit: usize) -> io::Result<(Vec<Entry>, bool)> {
        let (mut entries, more) = imp::entries(&self.dir, limit)?;
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok((entries, more))
    }

    /// Another handle on the same directory.
    pub fn try_clone(&self) -> io::Result<Beneath> {
        imp::clone(&self.dir).map(|dir| Beneath { dir })
    }
}

/// Reads `file` to its end, refusing more than `limit` bytes.
fn read_capped(file: File, rel: &Path, limit: u64) -> Result<Vec<u8>, BeneathError> {
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > limit {
        return Err(BeneathError::new(rel, BeneathErrorKind::TooLarge { limit }));
    }
    let mut out = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| BeneathError::io(rel, e))?;
    if out.len() as u64 > limit {
        return Err(BeneathError::new(rel, BeneathErrorKind::TooLarge { limit }));
    }
    Ok(out)
}

#[cfg(unix)]
mod imp {
    use std::ffi::OsStr;
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, OwnedFd};
    use std::path::Path;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};

    use super::{BeneathError, BeneathErrorKind, Entry, EntryKind};

    pub(super) fn open_root(root: &Path) -> io::Result<OwnedFd> {
        Ok(rustix::fs::open(
            root,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?)
    }

    pub(super) fn clone(dir: &OwnedFd) -> io::Result<OwnedFd> {
        dir.try_clone()
    }

    /// Why opening `name` in `dir` with `O_NOFOLLOW` failed with `e`: a link
    /// is reported as such (looked up again only to name the reason; the
    /// refusal itself came from the open).
    fn classify(dir: impl AsFd, rel: &Path, name: &OsStr, e: rustix::io::Errno) -> BeneathError {
        let is_link = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Symlink);
        if is_link {
            return BeneathError::new(rel, BeneathErrorKind::Symlink);
        }
        if e == rustix::io::Errno::NOTDIR {
            return BeneathError::new(rel, BeneathErrorKind::NotDirectory);
        }
        BeneathError::io(rel, e.into())
    }

    /// Opens each of `dirs` in turn from `root`, never following a link;
    /// `None` when `dirs` is empty (the root itself).
    pub(super) fn walk(root: &OwnedFd, rel: &Path, dirs: &[&OsStr]) -> Result<Option<OwnedFd>, BeneathError> {
        let mut cur: Option<OwnedFd> = None;
        for name in dirs {
            let parent = cur.as_ref().unwrap_or(root);
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let next =
                rustix::fs::openat(parent, *name, flags, Mode::empty()).map_err(|e| classify(parent, rel, name, e))?;
            cur = Some(next);
        }
        Ok(cur)
    }

    pub(super) fn open_leaf(dir: &OwnedFd, rel: &Path, name: &OsStr) -> Result<File, BeneathError> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(dir, name, flags, Mode::empty()).map_err(|e| classify(dir, rel, name, e))?;
        Ok(File::from(fd))
    }

    pub(super) fn entries(dir: &OwnedFd, limit: usize) -> io::Result<(Vec<Entry>, bool)> {
        let mut out = Vec::new();
        let mut listing = rustix::fs::Dir::read_from(dir)?;
        let mut more = false;
        for entry in &mut listing {
            let entry = entry?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            if out.len() == limit {
                more = true;
                break;
            }
            let name = <OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name).to_os_string();
            let mut kind = entry.file_type();
            if kind == FileType::Unknown {
                kind = rustix::fs::statat(dir, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW)
                    .map_or(FileType::Unknown, |st| FileType::from_raw_mode(st.st_mode));
            }
            let kind = match kind {
                FileType::RegularFile => EntryKind::File,
                FileType::Directory => EntryKind::Dir,
                FileType::Symlink => EntryKind::Symlink,
                _ => EntryKind::Other,
            };
            out.push(Entry { name, kind });
        }
        Ok((out, more))
    }
}

#[cfg(not(unix))]
mod imp {
    use std::ffi::OsStr;
    use std::fs::File;
    use std::io;
    use std::path::{Path, PathBuf};

    use super::{BeneathError, BeneathErrorKind, Entry, EntryKind};

    pub(super) fn open_root(root: &Path) -> io::Result<PathBuf> {
        let root = root.canonicalize()?;
        if !root.is_dir() {
            return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a directory"));
        }
        Ok(root)
    }

    pub(super) fn clone(dir: &PathBuf) -> io::Result<PathBuf> {
        Ok(dir.clone())
    }

    fn check(path: &Path, rel: &Path) -> Result<std::fs::Metadata, BeneathError> {
        let meta = std::fs::symlink_metadata(path).map_err(|e| BeneathError::io(rel, e))?;
        if meta.file_type().is_symlink() {
            return Err(BeneathError::new(rel, BeneathErrorKind::Symlink));
        }
        Ok(meta)
    }

    pub(super) fn walk(root: &PathBuf, rel: &Path, dirs: &[&OsStr]) -> Result<Option<PathBuf>, BeneathError> {
        if dirs.is_empty() {
            return Ok(None);
        }
        let mut cur = root.clone();
        for name in dirs {
            cur.push(name);
            if !check(&cur, rel)?.is_dir() {
                return Err(BeneathError::new(rel, BeneathErrorKind::NotDirectory));
            }
        }
        Ok(Some(cur))
    }

    pub(super) fn open_leaf(dir: &PathBuf, rel: &Path, name: &OsStr) -> Result<File, BeneathError> {
        let path = dir.join(name);
        check(&path, rel)?;
        File::open(&path).map_err(|e| BeneathError::io(rel, e))
    }

    pub(super) fn entries(dir: &PathBuf, limit: usize) -> io::Result<(Vec<Entry>, bool)> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            if out.len() == limit {
                return Ok((out, true));
            }
            let entry = entry?;
            let t = entry.file_type()?;
            let kind = if t.is_symlink() {
                EntryKind::Symlink
            } else if t.is_dir() {
                EntryKind::Dir
            } else if t.is_file() {
                EntryKind::File
            } else {
                EntryKind::Other
            };
            out.push(Entry {
                name: entry.file_name(),
                kind,
            });
        }
        Ok((out, false))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[allow(clippy::unwrap_used)]
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("advisor-beneath-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("root/sub")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("root/sub/in.txt"), "inside").unwrap();
        std::fs::write(dir.join("outside/secret.txt"), "outside").unwrap();
        dir
    }

    #[test]
    fn opens_files_beneath_the_root_and_refuses_escapes() {
        let dir = scratch("escapes");
        let root = Beneath::open(&dir.join("root")).unwrap();
        assert_eq!(root.read_file(Path::new("sub/in.txt"), 100).unwrap(), b"inside");
        assert_eq!(root.read_file(Path::new("./sub/./in.txt"), 100).unwrap(), b"inside");
        let kind = |p: &str| root.read_file(Path::new(p), 100).unwrap_err().kind;
        assert!(matches!(kind("../outside/secret.txt"), BeneathErrorKind::Parent));
        assert!(matches!(kind("sub/../in.txt"), BeneathErrorKind::Parent));
        let abs = dir.join("outside/secret.txt");
        assert!(matches!(kind(abs.to_str().unwrap()), BeneathErrorKind::Absolute));
        std::os::unix::fs::symlink(dir.join("outside"), dir.join("root/link")).unwrap();
        std::os::unix::fs::symlink(dir.join("outside/secret.txt"), dir.join("root/file-link")).unwrap();
        std::os::unix::fs::symlink("sub/in.txt", dir.join("root/inner-link")).unwrap();
        assert!(matches!(kind("link/secret.txt"), BeneathErrorKind::Symlink));
        assert!(matches!(kind("file-link"), BeneathErrorKind::Symlink));
        assert!(
            matches!(kind("inner-link"), BeneathErrorKind::Symlink),
            "no link is followed, even inside"
        );
        assert!(matches!(kind("sub"), BeneathErrorKind::NotRegular));
        assert!(matches!(kind("nothing"), BeneathErrorKind::NotFound));
        assert!(matches!(kind("sub/in.txt/x"), BeneathErrorKind::NotDirectory));
        assert!(matches!(kind(""), BeneathErrorKind::NotRegular));
        let e = root.read_file(Path::new("sub/in.txt"), 3).unwrap_err();
        assert!(matches!(e.kind, BeneathErrorKind::TooLarge { limit: 3 }), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lists_directories_without_following_links() {
        let dir = scratch("list");
        std::os::unix::fs::symlink(dir.join("outside"), dir.join("root/link")).unwrap();
        let root = Beneath::open(&dir.join("root")).unwrap();
        let (entries, more) = root.entries(10).unwrap();
        assert!(!more);
        let names: Vec<_> = entries.iter().map(|e| (e.name.to_str().unwrap(), e.kind)).collect();
        assert_eq!(names, [("link", EntryKind::Symlink), ("sub", EntryKind::Dir)]);
        let sub = root.open_dir(Path::new("sub")).unwrap();
        assert_eq!(sub.read_file(Path::new("in.txt"), 10).unwrap(), b"inside");
        assert!(matches!(
            root.open_dir(Path::new("link")).unwrap_err().kind,
            BeneathErrorKind::Symlink
        ));
        let (one, more) = root.entries(1).unwrap();
        assert_eq!((one.len(), more), (1, true));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn refuses_a_fifo_at_once() {
        let dir = scratch("fifo");
        let made = std::process::Command::new("mkfifo").arg(dir.join("root/pipe")).status();
        if made.map(|s| s.success()).unwrap_or(false) {
            let root = Beneath::open(&dir.join("root")).unwrap();
            let e = root.read_file(Path::new("pipe"), 10).unwrap_err();
            assert!(matches!(e.kind, BeneathErrorKind::NotRegular), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A directory swapped for a link to the outside while opens run: no
    /// open ever reads the outside file.
    #[test]
    fn a_directory_swapped_for_a_link_never_reads_the_outside_file() {
        let dir = scratch("swap");
        let root_path = dir.join("root");
        let root = Beneath::open(&root_path).unwrap();
        std::fs::write(dir.join("outside/in.txt"), "outside").unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let swapper = {
            let (stop, root_path) = (stop.clone(), root_path.clone());
            let outside = dir.join("outside");
            std::thread::spawn(move || {
                let (sub, held) = (root_path.join("sub"), root_path.join("held"));
                let pause = |n: u32| {
                    // about as long in each state, drifting against the opens
                    let until = std::time::Instant::now() + std::time::Duration::from_micros(u64::from(5 + n % 40));
                    while std::time::Instant::now() < until {
                        std::hint::spin_loop();
                    }
                };
                let mut n = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = std::fs::rename(&sub, &held);
                    let _ = std::os::unix::fs::symlink(&outside, &sub);
                    pause(n);
                    let _ = std::fs::remove_file(&sub);
                    let _ = std::fs::rename(&held, &sub);
                    pause(n);
                    n = n.wrapping_add(1);
                }
            })
        };
        let mut inside = 0;
        for i in 0..50_000 {
            if i >= 2_000 && inside >= 10 {
                break;
            }
            if let Ok(bytes) = root.read_file(Path::new("sub/in.txt"), 100) {
                assert_eq!(bytes, b"inside", "the outside file was read");
                inside += 1;
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        swapper.join().unwrap();
        assert!(inside > 0, "some opens found the real directory");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
