"""Searches that run off the GUI thread (Make it fit, Fastest layouts): one scenario each, stoppable."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QThread

from engine import Scenario


class CancellableSearch(QThread):
    """Searches for one scenario on a worker thread; cancel() asks it to stop at its next check of `cancelled`."""

    def __init__(self, scenario: Scenario, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.scenario = scenario
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    def cancelled(self) -> bool:
        return self._cancelled

    def stop(self, ms: int) -> None:
        """Cancel a running search and wait for it (at most `ms` milliseconds)."""
        if self.isRunning():
            self.cancel()
            self.wait(ms)


def wait_for(worker: CancellableSearch | None, ms: int) -> bool:
    """For tests and scripts: block until the search ends, then deliver its result signals."""
    if worker is None:
        return True
    done = worker.wait(ms)
    QCoreApplication.processEvents()
    return done
