"""Before the window opens on Linux/X11: are the system libraries Qt's xcb platform plugin needs installed?

Without them Qt aborts with "Could not load the Qt platform plugin xcb" and a core dump; this check names the one
command that installs them instead. Pure Python (ldd and the loader's cache): no Qt is started.
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

# soname -> Debian/Ubuntu package that provides it (the names Qt's own documentation lists for the xcb plugin).
DEBIAN_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xinerama.so.0": "libxcb-xinerama0", "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0", "libxkbcommon.so.0": "libxkbcommon0",
    "libxcb-sync.so.1": "libxcb-sync1", "libxcb-xfixes.so.0": "libxcb-xfixes0", "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-render.so.0": "libxcb-render0", "libxcb-util.so.1": "libxcb-util1", "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb.so.1": "libxcb1", "libX11.so.6": "libx11-6", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0", "libGLX.so.0": "libglx0", "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6", "libdbus-1.so.3": "libdbus-1-3", "libglib-2.0.so.0": "libglib2.0-0",
    "libSM.so.6": "libsm6", "libICE.so.6": "libice6",
}
DLOPENED = ("libxcb-cursor.so.0",)  # loaded at run time by Qt >= 6.5, so ldd does not list it


def needs_xcb_check() -> bool:
    """Linux with an X display and no other platform chosen (offscreen, wayland) is where xcb loads."""
    if not sys.platform.startswith("linux"):
        return False
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return False
    return bool(os.environ.get("DISPLAY")) and not (os.environ.get("WAYLAND_DISPLAY") and not platform)


def _qt_files() -> list[Path]:
    try:
        import PySide6  # only its location: no Qt library is loaded
    except ImportError:
        return []
    root = Path(PySide6.__file__).resolve().parent / "Qt"
    return [p for p in (root / "plugins" / "platforms" / "libqxcb.so", *sorted((root / "lib").glob("libQt6XcbQpa.so*")))
            if p.is_file()]


def missing_libraries() -> list[str]:
    """Sonames the xcb plugin needs that the system lacks (empty when all are there or nothing can be checked)."""
    missing: list[str] = []
    ldd = shutil.which("ldd")
    files = _qt_files()
    if ldd and files:
        for path in files:
            try:
                out = subprocess.run([ldd, str(path)], capture_output=True, text=True, timeout=20).stdout
            except (OSError, subprocess.SubprocessError):
                continue
            for line in out.splitlines():
                if "=> not found" in line:
                    name = line.split("=>")[0].strip()
                    if name not in missing:
                        missing.append(name)
    if files:
        for name in DLOPENED:
            stem = name.removeprefix("lib").split(".so")[0]
            if ctypes.util.find_library(stem) is None and name not in missing:
                missing.append(name)
    return missing


def install_hint(missing: list[str]) -> str:
    packages = sorted({DEBIAN_PACKAGES.get(name, name) for name in missing})
    known = all(name in DEBIAN_PACKAGES for name in missing)
    lines = [f"The window needs system libraries that Qt uses to draw on X11, and these are missing: {', '.join(missing)}."]
    if known:
        lines.append(f"On Debian or Ubuntu install them with:\n\n    sudo apt install {' '.join(packages)}\n")
    lines.append("(Other systems: install the packages that provide these files; see README, section 'What each "
                 "platform needs'.) Then start the app again.")
    return "\n".join(lines)


def main() -> int:
    """`python -m gui.system_libs`: exit 0 when the window can load, 4 after printing the install command."""
    missing = missing_libraries()
    if missing:
        print(install_hint(missing), file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
