"""A save under a new name as one undo step that carries the library entry with it.

Saving to the library under a new name renames the editor's scenario as an undoable edit (loading the saved copy
would clear the history). Undone, that edit took the name back but left the editor writing to the copy just saved:
after "Save as C" and Undo, the window read "B*" while Ctrl+S would have renamed C to B's name, two entries named B
and none C (user audit 14, a keyboard user's three saved scenarios). Undo now also takes back which entry (and
which of its versions) the editor saves to, and Redo gives them again.
"""

from __future__ import annotations

from .state import EditScenarioCommand
from .window_api import PlannerWindow
from .words import describe_changes


class SavedAsCommand(EditScenarioCommand):
    def __init__(self, win: PlannerWindow, name: str, library_id: str, version: str | None) -> None:
        before = win.state.scenario.to_dict()
        super().__init__(win.state, before, {**before, "name": name}, describe_changes({"name": name}))
        self._win = win
        self.entry_before = (win.state.library_id, win.library_version)
        self.entry_after = (library_id, version)

    def redo(self) -> None:
        self._state.library_id, self._win.library_version = self.entry_after
        super().redo()

    def undo(self) -> None:
        self._state.library_id, self._win.library_version = self.entry_before
        super().undo()


def rename_as_saved(win: PlannerWindow, name: str, library_id: str, version: str | None) -> None:
    """The editor's scenario renamed to what it was saved as, writing from now on to that entry: one undo step."""
    win.state.undo_stack.push(SavedAsCommand(win, name, library_id, version))
