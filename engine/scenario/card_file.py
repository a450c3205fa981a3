"""The scenario carried inside a plan card (a PDF or PNG the app exported), so the card opens as its scenario.

A PNG card holds the scenario's JSON in one uncompressed iTXt chunk; a PDF card holds it, base64-encoded, in one
element of the document's XMP metadata (an uncompressed stream that PDF readers leave alone). Reading walks the
bytes already read under the scenario size cap: PNG chunks by their lengths, the PDF by one marker search. Nothing
is decompressed, nothing of the card is rendered or executed, and a card that is damaged or carries no scenario is
refused in one sentence. Pure Python, no Qt.
"""

from __future__ import annotations

import base64
import binascii
import struct
import zlib
from html import escape

from ..errors import ScenarioError
from ..messages import QT_TRANSLATE_NOOP

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PDF_SIGNATURE = b"%PDF-"
CARD_KEYWORD = b"llm-memory-planner-scenario"  # the iTXt keyword (1-79 Latin-1 characters)
XMP_NAMESPACE = "https://github.com/llm-memory-planner/plan-card/1.0/"
XMP_OPEN = b"<planner:scenario>"
XMP_CLOSE = b"</planner:scenario>"
XMP_CRC = b"<planner:scenarioCrc32>"  # PNG chunks carry a CRC; the PDF's metadata does not, so the card adds one
MAX_PNG_CHUNKS = 10_000  # an exported card has about a dozen; more is damage, and the walk stops there


def is_card(raw: bytes) -> bool:
    """Whether the bytes are a PNG or PDF (so a plan card, or an image/document without a scenario)."""
    return raw.startswith(PNG_SIGNATURE) or raw.lstrip()[:5] == PDF_SIGNATURE


def _no_scenario(label: str) -> ScenarioError:
    return ScenarioError(label, QT_TRANSLATE_NOOP(
        "engine", "is an image or PDF without a scenario in it; only plan cards exported by LLM Memory Planner carry "
                  "one."))


def _damaged(label: str) -> ScenarioError:
    return ScenarioError(label, QT_TRANSLATE_NOOP(
        "engine", "is a plan card whose embedded scenario is damaged; export the card again from the scenario."))


# ---- PNG ---------------------------------------------------------------------------------------------------------

def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_with_scenario(png: bytes, scenario_json: bytes) -> bytes:
    """The PNG with the scenario's JSON (UTF-8) in an iTXt chunk just before IEND."""
    end = png.rfind(b"IEND") - 4  # the IEND chunk starts with its 4-byte length
    if not png.startswith(PNG_SIGNATURE) or end < len(PNG_SIGNATURE):
        raise ValueError("not a PNG image")
    # iTXt: keyword, NUL, compression flag 0, method 0, empty language tag NUL, empty translated keyword NUL, text
    text = CARD_KEYWORD + b"\x00\x00\x00\x00\x00" + scenario_json
    return png[:end] + _chunk(b"iTXt", text) + png[end:]


def _png_scenario(raw: bytes, label: str) -> bytes:
    offset = len(PNG_SIGNATURE)
    for _ in range(MAX_PNG_CHUNKS):
        if offset + 12 > len(raw):
            break
        (length,) = struct.unpack(">I", raw[offset:offset + 4])
        kind = raw[offset + 4:offset + 8]
        data = raw[offset + 8:offset + 8 + length]
        if len(data) < length or raw[offset + 8 + length:offset + 12 + length] != struct.pack(
                ">I", zlib.crc32(kind + data) & 0xFFFFFFFF):
            raise _damaged(label) if CARD_KEYWORD in raw else _no_scenario(label)
        if kind == b"iTXt" and data.startswith(CARD_KEYWORD + b"\x00"):
            head = data[len(CARD_KEYWORD) + 1:]
            if head[:2] != b"\x00\x00":  # compressed text is not what the app writes: refused, never inflated
                raise _damaged(label)
            language_end = head.find(b"\x00", 2)
            translated_end = head.find(b"\x00", language_end + 1) if language_end >= 0 else -1
            if translated_end < 0:
                raise _damaged(label)
            return head[translated_end + 1:]
        if kind == b"IEND":
            break
        offset += 12 + length
    raise _no_scenario(label)


# ---- PDF ---------------------------------------------------------------------------------------------------------

def card_xmp(scenario_json: bytes, title: str) -> bytes:
    """An XMP packet (the PDF's document metadata) with the title and the scenario, base64-encoded so that no
    character of it can end the element or the packet early."""
    encoded = base64.b64encode(scenario_json).decode("ascii")
    return ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            f'xmlns:planner="{XMP_NAMESPACE}"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}'
            f"</rdf:li></rdf:Alt></dc:title>{XMP_OPEN.decode()}{encoded}{XMP_CLOSE.decode()}{XMP_CRC.decode()}"
            f"{zlib.crc32(scenario_json) & 0xFFFFFFFF:08x}</planner:scenarioCrc32></rdf:Description>"
            '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>').encode()


def _pdf_scenario(raw: bytes, label: str) -> bytes:
    start = raw.find(XMP_OPEN)
    if start < 0:
        raise _no_scenario(label)
    end = raw.find(XMP_CLOSE, start)
    if end < 0:
        raise _damaged(label)
    crc_at = end + len(XMP_CLOSE)
    if raw[crc_at:crc_at + len(XMP_CRC)] != XMP_CRC:
        raise _damaged(label)
    try:
        data = base64.b64decode(raw[start + len(XMP_OPEN):end], validate=True)
        crc = int(raw[crc_at + len(XMP_CRC):crc_at + len(XMP_CRC) + 8], 16)
    except (binascii.Error, ValueError):
        raise _damaged(label) from None
    if zlib.crc32(data) & 0xFFFFFFFF != crc:  # a flipped byte would otherwise open as a different scenario
        raise _damaged(label)
    return data


def scenario_json_in_card(raw: bytes, label: str) -> bytes:
    """The scenario JSON a plan card carries (not yet parsed); ScenarioError (one sentence) when it carries none."""
    return _png_scenario(raw, label) if raw.startswith(PNG_SIGNATURE) else _pdf_scenario(raw, label)
