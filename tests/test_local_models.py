"""Models on this computer (issue 12): a fake Hugging Face cache made here, real safetensors files written here,
and hostile headers. Engine only (no Qt)."""

import json
import struct
from pathlib import Path

import pytest

from engine import model_presets
from engine.models.local import (
    SafetensorsError,
    find_local_models,
    hub_cache_dirs,
    read_header,
    scan_folder,
    summarize_folder,
)

BYTES = {"BF16": 2, "F16": 2, "F32": 4, "U8": 1, "I8": 1, "I32": 4, "F8_E4M3": 1}


def write_safetensors(path: Path, tensors: dict[str, tuple[str, list[int]]], metadata: dict | None = None) -> Path:
    """A valid file by the format's definition: u64 LE header length, JSON header, zero-filled tensor bytes."""
    header: dict = {"__metadata__": metadata or {"format": "pt"}}
    offset = 0
    for name, (dtype, shape) in tensors.items():
        n = BYTES[dtype]
        for d in shape:
            n *= d
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + n]}
        offset += n
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"\0" * offset)
    return path


def write_raw(path: Path, header: bytes, data: bytes = b"", length: int | None = None) -> Path:
    path.write_bytes(struct.pack("<Q", len(header) if length is None else length) + header + data)
    return path


def make_hub_model(root: Path, repo: str, config: dict, revision: str = "abc123", ref: bool = True) -> Path:
    repo_dir = root / ("models--" + repo.replace("/", "--"))
    snap = repo_dir / "snapshots" / revision
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps(config))
    if ref:
        (repo_dir / "refs").mkdir()
        (repo_dir / "refs" / "main").write_text(revision)
    return snap


def test_cache_locations_follow_huggingface_hub_precedence(tmp_path):
    env = {"HF_HUB_CACHE": str(tmp_path / "a"), "HF_HOME": str(tmp_path / "b")}
    assert hub_cache_dirs(env, tmp_path)[:2] == [tmp_path / "a", tmp_path / "b" / "hub"]
    assert hub_cache_dirs({}, tmp_path) == [tmp_path / ".cache" / "huggingface" / "hub"]


def test_fake_cache_and_user_folder_are_found(tmp_path):
    hub = tmp_path / "hub"
    llama = model_presets()["llama-3.2-1b"].hf_config
    make_hub_model(hub, "meta-llama/Llama-3.2-1B", llama)
    make_hub_model(hub, "Qwen/Qwen3-0.6B", model_presets()["qwen3-0.6b"].hf_config, ref=False)
    (hub / "models--broken--nothing" / "snapshots").mkdir(parents=True)  # no config: skipped
    mine = tmp_path / "my-models" / "org" / "tiny"
    mine.mkdir(parents=True)
    (mine / "config.json").write_text(json.dumps(llama))
    models = find_local_models([tmp_path / "my-models"], env={"HF_HUB_CACHE": str(hub)}, home=tmp_path)
    ids = sorted(m.repo_id for m in models)
    assert ids == ["Qwen/Qwen3-0.6B", "meta-llama/Llama-3.2-1B", "org/tiny"]
    assert {m.origin for m in models} == {"hub cache", "folder"}
    assert all(m.config_path.is_file() for m in models)
    assert scan_folder(mine)[0].repo_id == "tiny"


def test_safetensors_header_counts_parameters_and_dtypes(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    write_safetensors(folder / "model-00001-of-00002.safetensors",
                      {"model.embed_tokens.weight": ("BF16", [32, 8]), "model.norm.weight": ("F32", [8])})
    write_safetensors(folder / "model-00002-of-00002.safetensors", {"lm_head.weight": ("BF16", [32, 8])})
    summary = summarize_folder(folder)
    assert summary.files == 2 and summary.params == 32 * 8 * 2 + 8
    assert summary.dtypes == {"BF16": 512, "F32": 8} and summary.main_dtype == "BF16" and not summary.quantization
    try:  # the reference implementation agrees when it is installed (validate extra)
        from safetensors import safe_open
    except ImportError:
        return
    with safe_open(str(folder / "model-00002-of-00002.safetensors"), "np") as f:
        assert list(f.keys()) == ["lm_head.weight"]


@pytest.mark.parametrize("tensors, kind, params", [
    # bitsandbytes NF4: uint8 weight holding 2 values per byte + absmax/quant_map/quant_state (not parameters)
    ({"q.weight": ("U8", [64, 1]), "q.weight.absmax": ("F32", [2]), "q.weight.quant_map": ("F32", [16]),
      "q.weight.quant_state.bitsandbytes__nf4": ("U8", [10])}, "bnb-4bit", 128),
    ({"q.weight": ("I8", [16, 8]), "q.SCB": ("F32", [16])}, "bnb-8bit", 128),
    ({"q.qweight": ("I32", [2, 8]), "q.qzeros": ("I32", [1, 1]), "q.scales": ("F16", [1, 8])}, "gptq/awq-4bit", 128),
    # gpt-oss MXFP4: blocks of 16 bytes = 32 values, one E8M0 scale per block
    ({"experts.gate_up_proj_blocks": ("U8", [2, 2, 16]), "experts.gate_up_proj_scales": ("U8", [2, 2])}, "mxfp4", 128),
    ({"q.weight": ("F8_E4M3", [16, 8]), "q.weight_scale_inv": ("F32", [1, 1])}, "fp8", 128),
])
def test_quantised_checkpoints_are_recognised(tmp_path, tensors, kind, params):
    write_safetensors(tmp_path / "model.safetensors", tensors)
    summary = summarize_folder(tmp_path)
    assert summary.quantization == kind and summary.params == params


@pytest.mark.parametrize("build, words", [
    (lambda p: p.write_bytes(b"\x01\x02"), "too short"),
    (lambda p: write_raw(p, b"{}", length=2**40), "more than"),  # hostile length: nothing that big is read
    (lambda p: write_raw(p, b"{}", length=1000), "longer than the file"),
    (lambda p: write_raw(p, b"\xff\xfe not json"), "not JSON"),
    (lambda p: write_raw(p, b"[1, 2, 3]"), "not a JSON object"),
    (lambda p: write_raw(p, b"[" * 100000 + b"]" * 100000), "not JSON"),  # nesting bomb
    (lambda p: write_raw(p, json.dumps({"t": {"dtype": "EVIL", "shape": [1], "data_offsets": [0, 1]}}).encode(),
                         b"\0"), "malformed"),
    (lambda p: write_raw(p, json.dumps({"t": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 4]}}).encode(),
                         b"\0" * 4), "malformed"),
    (lambda p: write_raw(p, json.dumps({"t": {"dtype": "F32", "shape": [2**40], "data_offsets": [0, 2**42]}}).encode(),
                         b"\0" * 8), "outside the file"),
    (lambda p: write_raw(p, json.dumps({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                        "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}).encode(),
                         b"\0" * 12), "overlap"),
    (lambda p: write_raw(p, json.dumps({"__metadata__": {"x": 1}}).encode()), "__metadata__"),
])
def test_hostile_headers_are_refused_with_a_sentence(tmp_path, build, words):
    path = tmp_path / "bad.safetensors"
    build(path)
    with pytest.raises(SafetensorsError, match=words):
        read_header(path)


def test_a_folder_is_not_a_safetensors_file(tmp_path):
    with pytest.raises(SafetensorsError, match="not a regular file"):
        read_header(tmp_path)


def test_checkpoint_count_checks_the_config_count(tmp_path):
    """A tiny Llama config and a checkpoint with exactly its tensors: the two counts agree to the parameter."""
    from engine import model_from_hf_config

    cfg = {"model_type": "llama", "hidden_size": 16, "intermediate_size": 32, "num_hidden_layers": 2,
           "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 64, "tie_word_embeddings": False}
    tensors = {"model.embed_tokens.weight": ("BF16", [64, 16]), "lm_head.weight": ("BF16", [64, 16]),
               "model.norm.weight": ("BF16", [16])}
    for i in range(2):
        p = f"model.layers.{i}."
        tensors |= {p + "self_attn.q_proj.weight": ("BF16", [16, 16]), p + "self_attn.k_proj.weight": ("BF16", [8, 16]),
                    p + "self_attn.v_proj.weight": ("BF16", [8, 16]), p + "self_attn.o_proj.weight": ("BF16", [16, 16]),
                    p + "mlp.gate_proj.weight": ("BF16", [32, 16]), p + "mlp.up_proj.weight": ("BF16", [32, 16]),
                    p + "mlp.down_proj.weight": ("BF16", [16, 32]), p + "input_layernorm.weight": ("BF16", [16]),
                    p + "post_attention_layernorm.weight": ("BF16", [16])}
    write_safetensors(tmp_path / "model.safetensors", tensors)
    assert summarize_folder(tmp_path).params == model_from_hf_config(cfg).total_params
