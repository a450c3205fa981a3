"""The server a GPU type is rented in and its CPU (host) memory, for "What should I rent?" (engine/planning/rent.py).

presets/rent_servers.json holds, per GPU preset, the vendor's server (DGX, NVL72 compute tray, superchip) where one is
the standard, else a named cloud instance that rents the GPU (AWS g5/g6/g6e/g4dn for the PCIe cards, Azure for the
MI300X and H100 NVL, Oracle for the MI355X, IBM Cloud for Gaudi 3), with its GPU count and the host memory its document
states, each with its source; the option names the server or instance it was checked against. A count below a full
server is taken as its share of the server's memory (GPUs / server GPUs), which the report names; a node of more GPUs
than a multi-GPU server holds is not that server, so its memory is not known. A GPU without a stated server memory
(consumer and workstation cards, MI325X, B300) is "not known": the option is not checked and says so, nothing is
assumed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import PRESETS_DIR, checked_table, read_preset_json
from ..units import format_bytes

SERVERS_FILE = PRESETS_DIR / "rent_servers.json"

AS_SET = QT_TRANSLATE_NOOP("engine", "the node holds {host} (host_memory_bytes, as set)")
SERVER = QT_TRANSLATE_NOOP("engine", "the node holds {host} ({server}, {gpus} GPUs)")
SERVER_SHARE = QT_TRANSLATE_NOOP("engine", "the node holds {host} ({n} of the {server}'s {gpus} GPUs, taken as that "
                                           "share of its {full})")
NOT_KNOWN = QT_TRANSLATE_NOOP("engine", "the node's CPU memory is not known, so not checked: no document states the "
                                        "{server}'s")
NO_STANDARD = QT_TRANSLATE_NOOP("engine", "the node's CPU memory is not known, so not checked: no server standard "
                                          "states it for this GPU")
LARGER = QT_TRANSLATE_NOOP("engine", "the node's CPU memory is not known, so not checked: a node of {n} GPUs is larger "
                                     "than the {server} ({gpus} GPUs) whose memory is known")


@dataclass(frozen=True)
class Server:
    name: str
    gpus: int
    host_memory_bytes: int | None  # None: no document states it
    source: str


@dataclass(frozen=True)
class NodeHost:
    """The CPU memory of one rented node: capacity (None: not known) and what it rests on."""

    capacity_bytes: int | None
    basis: Message


@cache
def servers() -> dict[str, Server]:
    return checked_table(SERVERS_FILE.name, read_preset_json(SERVERS_FILE), lambda data: {
        gpu: Server(d["server"], int(d["gpus"]), d["host_memory_bytes"], d["source"])
        for gpu, d in data["servers"].items()})


def node_host(gpu: str, gpus_per_node: int, user_bytes: int | None = None, unit: str = "GiB") -> NodeHost:
    """Host memory of a rented node of `gpus_per_node` GPUs of `gpu`; user_bytes: the set-up's own host_memory_bytes,
    which holds for its own GPU type only (a rented type's node is its server, not the user's machine)."""
    if user_bytes is not None:
        return NodeHost(user_bytes, message(AS_SET, host=format_bytes(user_bytes, unit)))
    server = servers().get(gpu)
    if server is None:
        return NodeHost(None, message(NO_STANDARD))
    if server.host_memory_bytes is None:
        return NodeHost(None, message(NOT_KNOWN, server=server.name))
    if 1 < server.gpus < gpus_per_node:  # not that server (a superchip's memory comes with each of its GPUs)
        return NodeHost(None, message(LARGER, n=gpus_per_node, server=server.name, gpus=server.gpus))
    capacity = server.host_memory_bytes * gpus_per_node // server.gpus
    full = format_bytes(server.host_memory_bytes, unit)
    if gpus_per_node == server.gpus:
        return NodeHost(capacity, message(SERVER, host=format_bytes(capacity, unit), server=server.name,
                                          gpus=server.gpus))
    return NodeHost(capacity, message(SERVER_SHARE, host=format_bytes(capacity, unit), n=gpus_per_node,
                                      server=server.name, gpus=server.gpus, full=full))
