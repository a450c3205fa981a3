"""Issue 25.3: a theme or language switched while the window runs looks exactly like one chosen at start-up."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QWidget

from gui.app import build_window, switch_language
from gui.i18n import install_language


def _contrast(a: QColor, b: QColor) -> float:
    def lum(c: QColor) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _unreadable(win) -> list[str]:
    """Visible widgets whose text colour is unreadable on the theme's window colour (what they are drawn on)."""
    window = QApplication.instance().palette().color(QApplication.instance().palette().ColorRole.Window)
    out = []
    for w in win.findChildren(QWidget):
        if w.isVisibleTo(win):
            text = w.palette().color(w.foregroundRole())
            if _contrast(text, window) < 4.5:
                out.append(f"{type(w).__name__} {text.name()} on {window.name()}")
    return out


@pytest.mark.parametrize("start, switched", [("light", "dark"), ("dark", "light")])
def test_live_theme_switch_draws_every_text_like_a_fresh_start(qtbot, start, switched):
    win, _ = build_window(theme=start)
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    win.set_theme(switched)
    QApplication.instance().processEvents()
    assert not _unreadable(win), _unreadable(win)
    # The verdict's numbers line, as drawn: its pixels include the theme's text colour, not black on dark grey.
    image = win.verdict.grab().toImage()
    wanted = QApplication.instance().palette().color(QApplication.instance().palette().ColorRole.WindowText)
    lower = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height() // 2, image.height())]
    assert any(abs(c.lightness() - wanted.lightness()) < 24 for c in lower if c.saturation() < 40)
    background = image.pixelColor(image.width() - 2, image.height() - 2)
    assert abs(background.lightness() - QApplication.instance().palette().window().color().lightness()) < 8


class _FakeFonts:
    """A machine with a Chinese font installed (the test must not depend on one)."""

    @staticmethod
    def families() -> list[str]:
        return ["WenQuanYi Micro Hei"]


@pytest.fixture
def english_after():
    yield
    install_language(QApplication.instance(), "en")


def test_chinese_then_english_gives_back_the_original_font(qtbot, monkeypatch, english_after):
    from gui import i18n

    monkeypatch.setattr(i18n, "QFontDatabase", _FakeFonts)
    monkeypatch.setattr(i18n, "cjk_font_available", lambda: True)
    app = QApplication.instance()
    install_language(app, "en")
    english = app.font().families()
    win, _ = build_window(None)
    qtbot.addWidget(win)
    chinese = switch_language(win, "zh_CN")
    qtbot.addWidget(chinese)
    assert "WenQuanYi Micro Hei" in app.font().families()
    back = switch_language(chinese, "en")
    qtbot.addWidget(back)
    assert app.font().families() == english
    assert "WenQuanYi Micro Hei" not in back.menuBar().font().families()
