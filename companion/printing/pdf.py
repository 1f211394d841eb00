"""A tiny PDF writer: one full-page image per page, with an exact MediaBox.

Pages are JPEG (DCTDecode), raw RGB (FlateDecode) or – the default for the printables –
indexed colour: the page quantised to a small palette and Flate-compressed, 4–5 times smaller
than JPEG for flat card art and without JPEG's smudges around text and lines.

Pillow's PDF writer derives the page size from pixels / resolution, so a 2480 px A4 page at
300 dpi would be 209.97 mm wide; here the MediaBox is the paper size itself and the image
is stretched over it. Pages are pre-encoded JPEG (DCTDecode) or raw RGB (FlateDecode), so
worker processes can encode pages in parallel. `read_pages` is the matching tiny reader
used by the tests and `companion print --check`.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any

PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class PdfImage:
    data: bytes  # JPEG file bytes, or zlib-compressed RGB when filter == "FlateDecode"
    width: int
    height: int
    filter: str = "DCTDecode"
    palette: bytes = b""  # RGB triplets: an indexed image (one byte a pixel, FlateDecode)


def _num(v: float) -> str:
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return s or "0"


def write_pdf(pages: list[tuple[PdfImage, tuple[float, float]]], title: str = "") -> bytes:
    """pages: (image, (width_mm, height_mm)). Returns the PDF file bytes."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []

    def obj(body: bytes) -> int:
        offsets.append(len(out))
        n = len(offsets)
        out.extend(f"{n} 0 obj\n".encode() + body + b"\nendobj\n")
        return n

    # object numbers: 1 catalog, 2 pages, 3 info, then 3 per page (page, image, contents)
    n_pages = len(pages)
    page_ids = [4 + 3 * i for i in range(n_pages)]
    obj(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{p} 0 R" for p in page_ids)
    obj(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    safe = re.sub(r"[()\\]", "", title)
    obj(f"<< /Title ({safe}) /Producer (Tabletop Companion) >>".encode())
    for i, (img, (wmm, hmm)) in enumerate(pages):
        pid = page_ids[i]
        w, h = _num(wmm * PT_PER_MM), _num(hmm * PT_PER_MM)
        obj(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] "
            f"/Resources << /XObject << /Im0 {pid + 1} 0 R >> >> /Contents {pid + 2} 0 R >>".encode()
        )
        cs = (f"[/Indexed /DeviceRGB {len(img.palette) // 3 - 1} <{img.palette.hex()}>]" if img.palette
              else "/DeviceRGB")
        head = (
            f"<< /Type /XObject /Subtype /Image /Width {img.width} /Height {img.height} "
            f"/ColorSpace {cs} /BitsPerComponent 8 /Filter /{img.filter} /Length {len(img.data)} >>\n"
        )
        obj(head.encode() + b"stream\n" + img.data + b"\nendstream")
        content = f"q {w} 0 0 {h} 0 0 cm /Im0 Do Q".encode()
        obj(f"<< /Length {len(content)} >>\n".encode() + b"stream\n" + content + b"\nendstream")
    xref = len(out)
    out.extend(f"xref\n0 {len(offsets) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.extend(f"{off:010d} 00000 n \n".encode())
    out.extend(f"trailer\n<< /Size {len(offsets) + 1} /Root 1 0 R /Info 3 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return bytes(out)


def flate_image(rgb_bytes: bytes, width: int, height: int) -> PdfImage:
    return PdfImage(zlib.compress(rgb_bytes, 6), width, height, "FlateDecode")


def indexed_image(indices: bytes, palette: bytes, width: int, height: int) -> PdfImage:
    """One palette index a pixel (palette: RGB triplets, at most 256)."""
    return PdfImage(zlib.compress(indices, 6), width, height, "FlateDecode", palette)


@dataclass(frozen=True)
class ReadPage:
    mediabox_pt: tuple[float, float, float, float]
    image: bytes
    width: int
    height: int
    filter: str
    palette: bytes = b""

    def to_image(self) -> Any:
        """The page image as a Pillow RGB image (JPEG, RGB or indexed)."""
        import io

        from PIL import Image

        if self.filter == "DCTDecode":
            return Image.open(io.BytesIO(self.image)).convert("RGB")
        raw = zlib.decompress(self.image)
        if not self.palette:
            return Image.frombytes("RGB", (self.width, self.height), raw)
        img = Image.frombytes("P", (self.width, self.height), raw)
        img.putpalette(self.palette)
        return img.convert("RGB")

    @property
    def size_mm(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.mediabox_pt
        return (x1 - x0) / PT_PER_MM, (y1 - y0) / PT_PER_MM


_OBJ = re.compile(rb"(\d+) 0 obj\n(.*?)\nendobj\n", re.S)


def read_pages(pdf: bytes) -> list[ReadPage]:
    """Parse a PDF written by `write_pdf` (pages in order, with their image)."""
    objs = {int(m.group(1)): m.group(2) for m in _OBJ.finditer(pdf)}
    kids = re.search(rb"/Kids \[([^\]]*)\]", objs[2])
    assert kids is not None
    result = []
    for pid in (int(x) for x in re.findall(rb"(\d+) 0 R", kids.group(1))):
        page = objs[pid]
        mb = re.search(rb"/MediaBox \[([^\]]*)\]", page)
        im = re.search(rb"/Im0 (\d+) 0 R", page)
        assert mb is not None and im is not None
        body = objs[int(im.group(1))]
        head, _, rest = body.partition(b"\nstream\n")
        length = int(re.search(rb"/Length (\d+)", head).group(1))  # type: ignore[union-attr]
        width = int(re.search(rb"/Width (\d+)", head).group(1))  # type: ignore[union-attr]
        height = int(re.search(rb"/Height (\d+)", head).group(1))  # type: ignore[union-attr]
        filt = re.search(rb"/Filter /(\w+)", head).group(1).decode()  # type: ignore[union-attr]
        box = tuple(float(v) for v in mb.group(1).split())
        pal = re.search(rb"/Indexed /DeviceRGB \d+ <([0-9a-f]*)>", head)
        palette = bytes.fromhex(pal.group(1).decode()) if pal else b""
        result.append(ReadPage(box, rest[:length], width, height, filt, palette))  # type: ignore[arg-type]
    return result
