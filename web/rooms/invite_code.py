"""The invite's QR code, as an SVG drawing: a phone's camera opens the friend's seat from the host's screen.

Drawn by segno (pure Python, the QR code's own standard, ISO/IEC 18004), at
the error correction a screen needs (M: 15% of the code may be lost to a glare
or a thumb) and with the quiet zone the standard asks for, in the page's dark
colour on white, scaled by the page (``viewBox``, no fixed size).
"""

from __future__ import annotations

import io

import segno

DARK = "#1a1e29"  # the light theme's --text (static/css/app.css): a code reads on white in both themes


def invite_code(link: str) -> bytes:
    """The QR code of ``link`` (the invite's whole URL) as an SVG document."""
    code = segno.make(link, error="m", micro=False)
    drawing = io.BytesIO()
    code.save(drawing, kind="svg", dark=DARK, light="#ffffff", border=4, omitsize=True, xmldecl=False)
    return drawing.getvalue()
