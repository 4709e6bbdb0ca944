"""What a picture file is by its first bytes, and whether a JPEG file ends where its picture does.

OpenCV refuses a PNG, WebP, BMP or TIFF file cut short, but decodes a JPEG cut short (a photo
copied off a phone whose cable was pulled) as far as it goes and paints the rest grey, without a
word. These checks tell the player which of the two happened, find a HEIC photo (an
iPhone's), which OpenCV does not read at all and ``heic`` decodes, and tell a video or an AVIF
picture handed over as a photo.
"""

#: the first bytes of each kind of picture file (WebP and HEIC are checked apart: see ``kind_of``)
SIGNATURES = {
    b"\xff\xd8\xff": "JPEG",
    b"\x89PNG\r\n\x1a\n": "PNG",
    b"BM": "BMP",
    b"II*\x00": "TIFF",
    b"MM\x00*": "TIFF",
}
#: the pictures a folder of frames (a recording, a labelled set) holds: what OpenCV decodes alone
FRAME_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
#: the suffixes of the picture files a player may hand over (the kinds above and HEIC)
PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".heic", ".heif")
#: the ISO brands of HEIC/HEIF photos (bytes 8–12 after "ftyp")
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}

#: the ISO brands of AVIF pictures, which neither OpenCV nor pi-heif (HEVC only) decodes
AVIF_BRANDS = {b"avif", b"avis"}
#: the first bytes of the other videos a phone or a webcam records (MP4 and MOV files start with
#: an ISO "ftyp" box of another brand, see ``kind_of``)
VIDEO_SIGNATURES = (b"\x1a\x45\xdf\xa3",)  # Matroska and WebM

START_OF_SCAN = 0xDA
END_OF_IMAGE = 0xD9
#: markers that stand alone, with no length after them
STANDALONE = {0x01, *range(0xD0, 0xD9)}


def kind_of(head: bytes) -> str | None:
    """The kind of picture a file starting with ``head`` (its first 16 bytes or more) holds, or None."""
    for signature, kind in SIGNATURES.items():
        if head.startswith(signature):
            return kind
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    if head[4:8] == b"ftyp":
        if head[8:12] in HEIF_BRANDS:
            return "HEIC"
        return "AVIF" if head[8:12] in AVIF_BRANDS else "video"  # MP4, MOV, 3GP
    if head.startswith(VIDEO_SIGNATURES) or (head[:4] == b"RIFF" and head[8:12] == b"AVI "):
        return "video"
    return None


def jpeg_cut_short(data: bytes) -> bool:
    """Whether the JPEG file ``data`` ends before its first picture's end-of-image marker.

    The header segments are stepped over by their lengths (a preview picture inside them has an
    end marker of its own); after the start of the scan the coded picture never holds 0xFF
    followed by 0xD9 other than at its end. Bytes after that end (phones append more there) do
    not matter."""
    position = 2  # after the start-of-image marker
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return False  # not a header we understand: leave it to the decoder
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        if marker in STANDALONE:
            position += 2
            continue
        if marker == END_OF_IMAGE:
            return False
        length = int.from_bytes(data[position + 2 : position + 4], "big")
        if marker == START_OF_SCAN:
            return data.find(bytes([0xFF, END_OF_IMAGE]), position + 2 + length) < 0
        position += 2 + length
    return True
