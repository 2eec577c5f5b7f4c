"""public/favicon.ico (16 and 32 px) from public/icons/icon-192.png.

Browsers and feed readers that never read the page's head ask for
/favicon.ico. The app icon is a 64-colour indexed PNG (png.ts): decoded
here, box-filtered down by whole factors (192 = 6 x 32 = 12 x 16) with
premultiplied alpha, and written as 32-bit BMP entries, which every
reader of .ico files accepts. Standard library only.
"""
import struct
import sys
import zlib

SIZES = (16, 32)


def decode_indexed_png(data):
    """Rows of RGBA tuples of an 8-bit indexed, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, palette, alpha = 8, b"", [], []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, colour, interlace) == (8, 3, 0), "expected an 8-bit indexed PNG"
        elif kind == b"PLTE":
            palette = [tuple(body[i : i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"tRNS":
            alpha = list(body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, rows, previous = zlib.decompress(idat), [], bytearray(width)
    for y in range(height):
        start = y * (width + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + width])
        for x in range(width):
            left = line[x - 1] if x else 0
            up, up_left = previous[x], previous[x - 1] if x else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
                line[x] = (line[x] + pred) & 255
        rows.append([palette[i] + ((alpha[i] if i < len(alpha) else 255),) for i in line])
        previous = line
    return rows


def shrink(rows, size):
    """The image at size x size: each pixel the mean of its block, weighted by alpha."""
    factor = len(rows) // size
    out = []
    for by in range(size):
        line = []
        for bx in range(size):
            block = [rows[by * factor + dy][bx * factor + dx] for dy in range(factor) for dx in range(factor)]
            weight = sum(p[3] for p in block)
            a = round(weight / len(block))
            rgb = [round(sum(p[c] * p[3] for p in block) / weight) if weight else 0 for c in range(3)]
            line.append((*rgb, a))
        out.append(line)
    return out


def bmp_entry(pixels):
    """A 32-bit BMP for an .ico: the header's height counts the AND mask too; rows bottom-up."""
    size = len(pixels)
    header = struct.pack("<IiiHHIIiiII", 40, size, size * 2, 1, 32, 0, 0, 0, 0, 0, 0)
    colour = b"".join(bytes((b, g, r, a)) for row in reversed(pixels) for (r, g, b, a) in row)
    mask_row = ((size + 31) // 32) * 4
    return header + colour + bytes(mask_row * size)


def ico(images):
    entries = [bmp_entry(pixels) for pixels in images]
    offset = 6 + 16 * len(entries)
    directory = b""
    for pixels, entry in zip(images, entries):
        size = len(pixels)
        directory += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(entry), offset)
        offset += len(entry)
    return struct.pack("<HHH", 0, 1, len(entries)) + directory + b"".join(entries)


if __name__ == "__main__":
    source, target = sys.argv[1:3]
    with open(source, "rb") as file:
        rows = decode_indexed_png(file.read())
    with open(target, "wb") as file:
        file.write(ico([shrink(rows, size) for size in SIZES]))
