"""Opening the window on a scenario written to a file, as a user would (shared by the widget tests)."""

import json

from gui.app import build_window


def window_from(qtbot, tmp_path, data: dict, shown: bool = True, name: str = "s.json"):
    """A window on `data` saved as tmp_path/`name`, shown unless `shown` is False; the file must load without an
    error."""
    path = tmp_path / name
    path.write_text(json.dumps(data))
    win, error = build_window(str(path))
    assert error is None
    qtbot.addWidget(win)
    if shown:
        win.show()
    return win
