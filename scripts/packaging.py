#!/usr/bin/env python3
"""The file work of scripts/package.sh: versions, the plugin's lockfile, the npm tarballs'
staging, checksums, the consistency checks, and a loopback npm registry for the tests.

    packaging.py version                         the crate's version (Cargo.toml, [workspace.package])
    packaging.py stamp [VERSION] [--repository URL]
                                                 write VERSION (default: the crate's) into every npm
                                                 package.json, the plugin's package.json, lockfile
                                                 and plugin.json (and the repository URL into the
                                                 npm packages and the wheel's metadata, when given)
    packaging.py lock                            write plugins/claude-code/package-lock.json
    packaging.py check                           the committed files agree (versions, package lists,
                                                 launchers, lockfile, release workflow targets)
    packaging.py stage TARGET WHEEL DIR          the platform npm package of TARGET in DIR, with the
                                                 binary taken out of WHEEL; prints DIR/<package>
    packaging.py checksums DIR                   DIR/SHA256SUMS over every file of DIR
    packaging.py registry DIR PORTFILE           serve DIR's *.tgz as an npm registry on 127.0.0.1
                                                 (the port written to PORTFILE) until killed

Standard library only (Python 3.8+): it runs on every release runner and here.
Must not build anything (package.sh does) and never reaches past 127.0.0.1.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import stat
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NPM = ROOT / "packaging" / "npm"
MAIN = "advisor-cli"
PLUGIN = ROOT / "plugins" / "claude-code"
PYPROJECT = ROOT / "packaging" / "pypi" / "pyproject.toml"
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def fail(msg: str) -> None:
    print(f"packaging: {msg}", file=sys.stderr)
    sys.exit(1)


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def dump(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n")


def crate_version() -> str:
    text = (ROOT / "Cargo.toml").read_text()
    m = re.search(r'(?ms)^\[workspace\.package\]\s*$.*?^version\s*=\s*"([^"]+)"', text)
    if not m:
        fail("no version in Cargo.toml's [workspace.package]")
    return m.group(1)


def platforms() -> list:
    """(package name, package.json) of every platform package, by name."""
    out = []
    for d in sorted(NPM.iterdir()):
        if d.name != MAIN and (d / "package.json").exists():
            out.append((d.name, load(d / "package.json")))
    return out


def lockfile() -> dict:
    """The plugin's package-lock.json, derived from the committed package.json files.

    No `resolved` (npm resolves each version on the registry it is configured with, so no
    registry address is written here) and no `integrity` (a tarball's hash exists only once
    the release has built it; npm's registry never replaces a published version)."""
    plugin = load(PLUGIN / "package.json")
    main = load(NPM / MAIN / "package.json")
    root = {k: plugin[k] for k in ("name", "version", "license", "dependencies") if k in plugin}
    packages = {"": root}
    entry = {"version": main["version"]}
    for k in ("license", "bin", "engines", "optionalDependencies"):
        if k in main:
            entry[k] = main[k]
    packages[f"node_modules/{MAIN}"] = entry
    for name, pkg in platforms():
        e = {"version": pkg["version"]}
        for k in ("cpu", "libc", "license"):
            if k in pkg:
                e[k] = pkg[k]
        e["optional"] = True
        e["os"] = pkg["os"]
        packages[f"node_modules/{name}"] = dict(sorted(e.items()))
    return {"name": plugin["name"], "version": plugin["version"], "lockfileVersion": 3, "requires": True,
            "packages": packages}


def write_lock() -> None:
    dump(PLUGIN / "package-lock.json", lockfile())


def stamp(version: str, repository: str | None) -> None:
    if not re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", version):
        fail(f"not a version: {version}")
    for d in sorted(NPM.iterdir()):
        p = d / "package.json"
        if not p.exists():
            continue
        pkg = load(p)
        pkg["version"] = version
        if "optionalDependencies" in pkg:
            pkg["optionalDependencies"] = {k: version for k in pkg["optionalDependencies"]}
        if repository:
            pkg["repository"] = {"type": "git", "url": f"git+{repository}.git"}
        dump(p, pkg)
    plugin = load(PLUGIN / "package.json")
    plugin["version"] = version
    plugin["dependencies"][MAIN] = version
    dump(PLUGIN / "package.json", plugin)
    manifest = load(PLUGIN / ".claude-plugin" / "plugin.json")
    manifest["version"] = version
    dump(PLUGIN / ".claude-plugin" / "plugin.json", manifest)
    if repository:
        text = PYPROJECT.read_text()
        if "[project.urls]" not in text:
            text = text.replace("\n[tool.maturin]", f'\n[project.urls]\nRepository = "{repository}"\n\n[tool.maturin]')
            PYPROJECT.write_text(text)
    write_lock()


def check() -> None:
    """Every committed version is the crate's; the package lists agree everywhere."""
    version = crate_version()
    problems = []
    main = load(NPM / MAIN / "package.json")
    names = [name for name, _ in platforms()]
    for name, pkg in [(MAIN, main)] + platforms():
        if pkg["version"] != version:
            problems.append(f"{name}/package.json: version {pkg['version']}, the crate's is {version}")
        if pkg["name"] != name:
            problems.append(f"{name}/package.json: name {pkg['name']}")
    if sorted(main.get("optionalDependencies", {})) != names:
        problems.append(f"{MAIN}'s optionalDependencies {sorted(main.get('optionalDependencies', {}))} "
                        f"are not the platform packages {names}")
    for dep, v in main.get("optionalDependencies", {}).items():
        if v != version:
            problems.append(f"{MAIN} depends on {dep}@{v}, not the crate's {version}")
    launcher = (NPM / MAIN / "bin" / "advisor.js").read_text()
    in_launcher = sorted(set(re.findall(r"'(advisor-cli-[a-z0-9-]+)'", launcher)))
    if in_launcher != names:
        problems.append(f"bin/advisor.js knows {in_launcher}, the platform packages are {names}")
    hook = (PLUGIN / "hooks" / "advisor-hook.sh").read_text()
    for name, pkg in platforms():
        os_, cpu = pkg["os"][0], pkg["cpu"][0]
        if f"os={os_}" not in hook or f"cpu={cpu}" not in hook:
            problems.append(f"hooks/advisor-hook.sh does not map {os_}-{cpu} ({name})")
    plugin = load(PLUGIN / "package.json")
    if plugin["dependencies"].get(MAIN) != version:
        problems.append(f"the plugin depends on {MAIN}@{plugin['dependencies'].get(MAIN)}, not {version}")
    if plugin["version"] != version:
        problems.append(f"the plugin's package.json is at {plugin['version']}, not {version}")
    manifest = load(PLUGIN / ".claude-plugin" / "plugin.json")
    if manifest.get("version") != version:
        problems.append(f"plugin.json is at {manifest.get('version')}, not {version}")
    lock = PLUGIN / "package-lock.json"
    if not lock.exists() or load(lock) != lockfile():
        problems.append("plugins/claude-code/package-lock.json is not what `packaging.py lock` writes")
    targets = sorted(pkg["advisor"]["rustTarget"] for _, pkg in platforms())
    if WORKFLOW.exists():
        in_workflow = sorted(set(re.findall(r"target:\s*([a-z0-9_]+-[a-z0-9_-]+)", WORKFLOW.read_text())))
        if in_workflow != targets:
            problems.append(f"the release workflow builds {in_workflow}, the platform packages are {targets}")
    else:
        problems.append(f"no release workflow at {WORKFLOW.relative_to(ROOT)}")
    if problems:
        fail("\n  ".join(["the packaging files disagree:"] + problems))
    print(f"packaging: {len(names)} platform packages, all at {version}; the launchers, the plugin's "
          f"lockfile and the release workflow agree")


def stage(target: str, wheel: Path, out: Path) -> None:
    """Copies the platform package of `target` into `out` and puts the wheel's binary in it."""
    found = [(name, pkg) for name, pkg in platforms() if pkg["advisor"]["rustTarget"] == target]
    if not found:
        fail(f"no platform package builds {target}")
    name, _ = found[0]
    dest = out / name
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(NPM / name, dest)
    exe = "advisor.exe" if "windows" in target else "advisor"
    with zipfile.ZipFile(wheel) as z:
        members = [m for m in z.namelist() if re.fullmatch(r"[^/]+\.data/scripts/" + re.escape(exe), m)]
        if len(members) != 1:
            fail(f"{wheel.name} holds no single .data/scripts/{exe}: {z.namelist()}")
        (dest / "bin").mkdir()
        binary = dest / "bin" / exe
        binary.write_bytes(z.read(members[0]))
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    print(dest)


def checksums(d: Path) -> None:
    lines = []
    for f in sorted(d.iterdir()):
        if f.is_file() and f.name != "SHA256SUMS":
            lines.append(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}\n")
    (d / "SHA256SUMS").write_text("".join(lines))
    print(f"packaging: SHA256SUMS over {len(lines)} files in {d}")


def registry(d: Path, portfile: Path) -> None:
    """A loopback npm registry over the tarballs of `d`: GET /<name> is the packument (each
    version's package.json with `dist`), GET /<name>/-/<file>.tgz the tarball."""
    packuments: dict = {}
    files: dict = {}
    for tgz in sorted(d.glob("*.tgz")):
        data = tgz.read_bytes()
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            member = t.extractfile("package/package.json")
            if member is None:
                continue
            pkg = json.loads(member.read())
        name, version = pkg["name"], pkg["version"]
        files[f"/{name}/-/{tgz.name}"] = data
        pkg["dist"] = {"tarball": f"{{base}}/{name}/-/{tgz.name}",
                       "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
                       "shasum": hashlib.sha1(data).hexdigest()}
        entry = packuments.setdefault(name, {"name": name, "versions": {}, "dist-tags": {}})
        entry["versions"][version] = pkg
        entry["dist-tags"]["latest"] = version

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            path = self.path.split("?", 1)[0]
            base = f"http://127.0.0.1:{self.server.server_address[1]}"
            if path in files:
                body, kind = files[path], "application/octet-stream"
            else:
                name = path.lstrip("/").replace("%2f", "/").replace("%2F", "/")
                if name not in packuments:
                    self.send_error(404, "not in the loopback registry")
                    return
                body = json.dumps(packuments[name]).replace("{base}", base).encode()
                kind = "application/json"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tmp = portfile.with_suffix(".tmp")
    tmp.write_text(str(server.server_address[1]))
    os.replace(tmp, portfile)
    server.serve_forever()


def main() -> None:
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmd = args[0]
    if cmd == "version":
        print(crate_version())
    elif cmd == "stamp":
        rest, repository = args[1:], None
        if "--repository" in rest:
            i = rest.index("--repository")
            if i + 1 >= len(rest):
                fail("usage: stamp [VERSION] [--repository URL]")
            repository = rest[i + 1].rstrip("/")
            del rest[i:i + 2]
        if len(rest) > 1:
            fail("usage: stamp [VERSION] [--repository URL]")
        stamp(rest[0] if rest else crate_version(), repository)
    elif cmd == "lock":
        write_lock()
    elif cmd == "check":
        check()
    elif cmd == "stage" and len(args) == 4:
        stage(args[1], Path(args[2]), Path(args[3]))
    elif cmd == "checksums" and len(args) == 2:
        checksums(Path(args[1]))
    elif cmd == "registry" and len(args) == 3:
        registry(Path(args[1]), Path(args[2]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
