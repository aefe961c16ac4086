"""Draws the installable app's icons, frontend/icons/*.png (committed), with Pillow.

A crescent moon over two cards on the felt: "any" icons on a rounded square, "maskable"
ones full-bleed with the drawing inside the safe circle. Run by hand after a change:
`.venv/bin/python deploy/icons.py`.
"""

from PIL import Image, ImageDraw

SS = 4  # drawn at 4x, then scaled down: smooth edges


def icon(size, maskable):
    S = size * SS
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if maskable:
        d.rectangle([0, 0, S, S], fill="#145c3a")
        scale = 0.62
    else:
        d.rounded_rectangle([0, 0, S - 1, S - 1], radius=S * 0.22, fill="#145c3a")
        scale = 0.8
    # inner felt glow
    c = S / 2
    r = S * scale / 2
    # two cards fanned behind
    for angle, colour in ((-14, "#fffdf6"), (10, "#fffdf6")):
        card = Image.new("RGBA", (S, S), (0, 0, 0, 0))
        cd = ImageDraw.Draw(card)
        w, h = r * 0.78, r * 1.1
        cd.rounded_rectangle(
            [c - w / 2, c - h / 2 + r * 0.1, c + w / 2, c + h / 2 + r * 0.1],
            radius=w * 0.12,
            fill=colour,
            outline="#b9b19b",
            width=max(2, S // 160),
        )
        card = card.rotate(angle, center=(c, c + r * 0.3), resample=Image.BICUBIC)
        img.alpha_composite(card)
    # gold moon top-left over the cards: a gold disc with a felt disc cutting it
    mr = r * 0.46
    mx, my = c - r * 0.38, c - r * 0.42
    mask = Image.new("L", (S, S), 0)
    md = ImageDraw.Draw(mask)
    md.ellipse([mx - mr, my - mr, mx + mr, my + mr], fill=255)
    cut = mr * 0.86
    cx, cy = mx + mr * 0.5, my - mr * 0.28
    md.ellipse([cx - cut, cy - cut, cx + cut, cy + cut], fill=0)
    img.paste(Image.new("RGBA", (S, S), "#f4d58d"), (0, 0), mask)
    d = ImageDraw.Draw(img)
    # a red heart pip on the front card
    hx, hy, hs = c + r * 0.12, c + r * 0.38, r * 0.2
    d.ellipse([hx - hs, hy - hs, hx, hy], fill="#c4262e")
    d.ellipse([hx, hy - hs, hx + hs, hy], fill="#c4262e")
    d.polygon(
        [(hx - hs * 0.98, hy - hs * 0.35), (hx + hs * 0.98, hy - hs * 0.35), (hx, hy + hs * 1.05)],
        fill="#c4262e",
    )
    return img.resize((size, size), Image.LANCZOS)


if __name__ == "__main__":
    for size in (192, 512):
        icon(size, False).save(f"frontend/icons/icon-{size}.png", optimize=True)
        icon(size, True).convert("RGB").save(f"frontend/icons/maskable-{size}.png", optimize=True)
