"""WCAG 2 contrast from what the browser computed: colours, backgrounds and opacity composited.

``SAMPLE_COLOURS`` runs in the page and returns, for each visible element that a
selector matches, its text colour (alpha times the opacity of the element and of
its ancestors up to the first background) and the background layers behind it;
``seen_contrast`` composites them as the screen does and gives the ratio.
"""

from __future__ import annotations

from collections.abc import Sequence

from playwright.sync_api import Page

# Channels from 0 to 255, then alpha from 0 to 1 (as the page returns them, lists).
RGB = Sequence[float]
RGBA = Sequence[float]

# Any CSS colour (light-dark(), color-mix(), rgb()) is read back as RGBA through a 1x1 canvas.
SAMPLE_COLOURS = """(selector) => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const rgba = (css) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible';
  return [...document.querySelectorAll(selector)].filter(visible).map((el) => {
    const [r, g, b, a] = rgba(getComputedStyle(el).color);
    let alpha = a;
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const background = rgba(style.backgroundColor);
      const opacity = Number(style.opacity);
      if (background[3] > 0) layers.push(background);
      if (layers.length === 0) alpha *= opacity;
      else if (opacity !== 1) return {error: `opacity ${opacity} over a background: not modelled`};
      if (layers.length && layers[layers.length - 1][3] === 1) break;
    }
    return {text: el.textContent.trim(), colour: [r, g, b, alpha], layers};
  });
}"""


def channel(value: float) -> float:
    """One sRGB channel (0-255) as linear light (0-1), as WCAG 2 defines it."""
    scaled = value / 255
    return scaled / 12.92 if scaled <= 0.04045 else ((scaled + 0.055) / 1.055) ** 2.4


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an opaque sRGB colour: 0 for black, 1 for white.

    >>> relative_luminance((255, 255, 255)), relative_luminance((0, 0, 0))
    (1.0, 0.0)
    """
    red, green, blue = (channel(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG 2 contrast ratio of two opaque colours, from 1 to 21, in either order.

    >>> contrast_ratio((0, 0, 0), (255, 255, 255))
    21.0
    >>> round(contrast_ratio((255, 255, 255), (0x76, 0x76, 0x76)), 2)
    4.54
    """
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def composite(top: RGBA, bottom: RGB) -> tuple[float, float, float]:
    """``top`` painted over opaque ``bottom`` (source-over, alpha from 0 to 1).

    >>> composite((0, 0, 0, 0.5), (255, 255, 255))
    (127.5, 127.5, 127.5)
    """
    red, green, blue, alpha = top
    return (
        red * alpha + bottom[0] * (1 - alpha),
        green * alpha + bottom[1] * (1 - alpha),
        blue * alpha + bottom[2] * (1 - alpha),
    )


def seen_contrast(sample: dict) -> float:
    """The contrast a person sees for one ``SAMPLE_COLOURS`` result: the text over its layers.

    Raises ``ValueError`` when the layers never reach an opaque background, or the page
    reported what the sample cannot model.
    """
    if "error" in sample:
        raise ValueError(sample["error"])
    layers = sample["layers"]
    if not layers or layers[-1][3] != 1:
        raise ValueError(f"no opaque background behind {sample['text']!r}: {layers}")
    background: RGB = layers[-1][:3]
    for layer in reversed(layers[:-1]):
        background = composite(layer, background)
    return contrast_ratio(composite(sample["colour"], background), background)


# Colours and opacities still on their way (a piece appearing, a scheme's colour transition)
# are not what a person reads: wait for every finite animation and transition to end.
TRANSITIONS_DONE = """() => Promise.all(document.getAnimations()
  .filter((animation) => Number.isFinite(animation.effect.getComputedTiming().endTime))
  .map((animation) => animation.finished.catch(() => null)))"""


def lowest_contrast(page: Page, selector: str) -> tuple[float, str]:
    """The lowest contrast among the visible elements ``selector`` matches, once every transition ended.

    Returns that element's text too; raises ``AssertionError`` when no visible element matches.
    """
    page.evaluate(TRANSITIONS_DONE)
    samples = page.evaluate(SAMPLE_COLOURS, selector)
    assert samples, f"nothing visible matches {selector}"
    return min((seen_contrast(sample), sample.get("text", "")) for sample in samples)
