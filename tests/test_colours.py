"""The colours stay apart for the common colour-vision deficiencies, and text keeps WCAG AA contrast.

How it is checked: each colour is converted to linear RGB and passed through the matrices of Machado,
Oliveira & Fernandes (2009, "A physiologically-based model for simulation of color vision deficiency",
IEEE TVCG 15(6), severity 1.0) for protanopia, deuteranopia and tritanopia, then to CIELAB (D65); colour
differences are CIEDE2000 (ΔE00: about 1 is just noticeable, above 10 reads as a different colour).
Measured here (normal / protan / deutan / tritan): viridis' lightness L* rises by at least 4.3 / 3.1 /
4.3 / 2.7 per sixteenth of the scale, so a brighter cell is a larger value for every viewer; the ten
steps of the colour legend differ by ΔE00 ≥ 8.9 / 3.9 / 5.5 / 5.7 (and every heatmap cell prints its
number); the bar colour and the highlight differ by ΔE00 ≥ 49; the first four colours of the palette by
≥ 37 / 12.2 / 15.9 / 12.4, all eight by ≥ 10.9. A masked cell's grey is ΔE00 ≥ 9.3 from every viridis
colour (tritanopia; ≥ 21 otherwise), and it is struck through and says 0 as well. The matplotlib weight
maps use the same viridis on 0 … 1 (hatched masked cells say −∞→0); score maps use RdBu_r, whose two ends
stay ΔE00 ≥ 30 apart for every viewer (measured here), so a sign reads for everyone.
"""

import itertools
import math

import pytest

from attn_viz import plots
from attn_viz import svg as draw

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISION = ["normal", *MACHADO]
SRGB_TO_XYZ = ((0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750), (0.0193339, 0.1191920, 0.9503041))
WHITE_POINT = (0.95047, 1.0, 1.08883)  # D65


def linear_rgb(colour):
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def seen(colour, vision):
    """CIELAB of ``colour`` as a viewer with ``vision`` sees it."""
    rgb = linear_rgb(colour)
    if vision != "normal":
        rgb = [min(max(sum(m * c for m, c in zip(row, rgb)), 0.0), 1.0) for row in MACHADO[vision]]
    xyz = [sum(m * c for m, c in zip(row, rgb)) / w for row, w in zip(SRGB_TO_XYZ, WHITE_POINT)]
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def ciede2000(lab1, lab2):
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005)."""
    (L1, a1, b1), (L2, a2, b2) = lab1, lab2
    C_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    G = 0.5 * (1 - math.sqrt(C_mean**7 / (C_mean**7 + 25**7)))
    a1, a2 = (1 + G) * a1, (1 + G) * a2
    C1, C2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if C1 * C2 == 0 else (h2 - h1 + 180) % 360 - 180
    dL, dC, dH = L2 - L1, C2 - C1, 2 * math.sqrt(C1 * C2) * math.sin(math.radians(dh / 2))
    L_mean, C_mean = (L1 + L2) / 2, (C1 + C2) / 2
    if C1 * C2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    T = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    S_L = 1 + 0.015 * (L_mean - 50) ** 2 / math.sqrt(20 + (L_mean - 50) ** 2)
    S_C, S_H = 1 + 0.045 * C_mean, 1 + 0.015 * C_mean * T
    R_T = (
        -math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
        * 2
        * math.sqrt(C_mean**7 / (C_mean**7 + 25**7))
    )
    return math.sqrt((dL / S_L) ** 2 + (dC / S_C) ** 2 + (dH / S_H) ** 2 + R_T * (dC / S_C) * (dH / S_H))


def difference(a, b, vision):
    return ciede2000(seen(a, vision), seen(b, vision))


def test_ciede2000_matches_the_published_test_data():
    """Two pairs from Sharma, Wu & Dalal's table of test data (pairs 1 and 17)."""
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


@pytest.mark.parametrize("vision", VISION)
def test_a_brighter_cell_is_a_larger_value_for_every_viewer(vision):
    lightness = [seen(draw.viridis(k / 16), vision)[0] for k in range(17)]
    assert min(b - a for a, b in zip(lightness, lightness[1:])) >= 2.5, lightness


@pytest.mark.parametrize("vision", VISION)
def test_the_legends_steps_and_the_masked_grey_stay_apart(vision):
    steps = [draw.viridis((k + 0.5) / 10) for k in range(10)]  # as svg.colorbar draws them
    assert min(difference(a, b, vision) for a, b in zip(steps, steps[1:])) >= 3.5
    assert min(difference(draw.MASKED, draw.viridis(k / 255), vision) for k in range(256)) >= 9.0


@pytest.mark.parametrize("vision", VISION)
def test_bar_highlight_and_palette_colours_stay_apart(vision):
    assert difference(plots.BASE_COLOUR, plots.HIGHLIGHT_COLOUR, vision) >= 40
    pairs = {(a, b): difference(a, b, vision) for a, b in itertools.combinations(plots.PALETTE, 2)}
    assert min(v for (a, b), v in pairs.items() if {a, b} <= set(plots.PALETTE[:4])) >= 12, pairs
    assert min(pairs.values()) >= 10, pairs


def test_text_and_lines_contrast_with_white():
    """WCAG 2.x: text at least 4.5:1; the first four palette colours (lines, bars) at least 3:1."""
    for colour in (draw.INK, draw.MUTED, draw.ERROR, plots.HIGHLIGHT_TEXT, "#696969"):  # #696969: dimgray (−∞ labels)
        assert draw.contrast(colour, "#ffffff") >= draw.AA_CONTRAST, colour
    for colour in plots.PALETTE[:4]:
        assert draw.contrast(colour, "#ffffff") >= 3.0, colour


def test_matplotlib_heatmap_labels_meet_aa_on_every_cell():
    cmap = plots.mpl.colormaps["viridis"]
    for k in range(256):
        cell = plots.mpl.colors.to_hex(cmap(k / 255))
        ink = "#ffffff" if plots._contrast(cmap(k / 255)) == "white" else "#000000"
        assert draw.contrast(ink, cell) >= draw.AA_CONTRAST, cell


@pytest.mark.parametrize("vision", VISION)
def test_a_score_maps_negative_and_positive_ends_stay_apart(vision):
    cmap = plots.mpl.colormaps[plots.SCORE_CMAP]
    negative, middle, positive = (plots.mpl.colors.to_hex(cmap(t)) for t in (0.1, 0.5, 0.9))
    assert difference(negative, positive, vision) >= 30
    assert min(difference(negative, middle, vision), difference(positive, middle, vision)) >= 20


def test_matplotlib_score_labels_meet_aa_on_every_cell():
    cmap = plots.mpl.colormaps[plots.SCORE_CMAP]
    for k in range(256):
        cell = plots.mpl.colors.to_hex(cmap(k / 255))
        ink = "#ffffff" if plots._contrast(cmap(k / 255)) == "white" else "#000000"
        assert draw.contrast(ink, cell) >= draw.AA_CONTRAST, cell


def test_the_matplotlib_weight_map_is_the_explorers_viridis():
    cmap = plots.mpl.colormaps[plots.WEIGHT_CMAP]
    for k in range(0, 256, 15):
        ours = plots.mpl.colors.to_rgb(cmap(k / 255))
        theirs = plots.mpl.colors.to_rgb(draw.viridis(k / 255))
        assert max(abs(a - b) for a, b in zip(ours, theirs)) <= 3 / 255, k  # svg interpolates 17 samples
