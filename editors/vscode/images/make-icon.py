# Regenerates icon.png (128x128): python3 make-icon.py icon.png (needs Pillow).
# Draws the extension icon: a marionette control bar whose strings hold three
# nodes, on a rounded navy square. Drawn at 8x and scaled down for smooth edges.
import sys
from PIL import Image, ImageDraw

S = 1024
img = Image.new("RGBA", (S, S), (0, 0, 0, 0))

# Rounded square with a vertical gradient.
grad = Image.new("RGBA", (S, S))
top, bottom = (44, 66, 120), (22, 33, 62)
gd = ImageDraw.Draw(grad)
for y in range(S):
    t = y / (S - 1)
    gd.line([(0, y), (S, y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom)) + (255,))
mask = Image.new("L", (S, S), 0)
ImageDraw.Draw(mask).rounded_rectangle([16, 16, S - 17, S - 17], radius=210, fill=255)
img.paste(grad, (0, 0), mask)

d = ImageDraw.Draw(img)
orange = (255, 170, 40, 255)
string = (225, 232, 245, 255)
white = (250, 250, 252, 255)

# The control: a horizontal bar crossed by a short vertical one.
cx = S // 2
bar_y = 250
d.rounded_rectangle([cx - 300, bar_y - 34, cx + 300, bar_y + 34], radius=34, fill=orange)
d.rounded_rectangle([cx - 34, bar_y - 130, cx + 34, bar_y + 130], radius=34, fill=orange)

# Three nodes hanging on strings, joined like a small graph.
nodes = [(cx - 270, 640), (cx, 800), (cx + 270, 640)]
anchors = [(cx - 270, bar_y), (cx, bar_y + 130), (cx + 270, bar_y)]
for (ax, ay), (nx, ny) in zip(anchors, nodes):
    d.line([(ax, ay), (nx, ny)], fill=string, width=16)
d.line([nodes[0], nodes[1], nodes[2]], fill=white, width=30, joint="curve")
r = 88
for i, (nx, ny) in enumerate(nodes):
    d.ellipse([nx - r, ny - r, nx + r, ny + r], fill=orange if i == 1 else white)
    d.ellipse([nx - r + 34, ny - r + 34, nx + r - 34, ny + r - 34], fill=(30, 45, 84, 255))

img.resize((128, 128), Image.LANCZOS).save(sys.argv[1], optimize=True)
