"""The ggml-written sample: exact metadata values, lazy arrays, tensors, layout, and every
dequantized tensor hashing to ggml's own output (conformance/samples/ggml-written.dequant.sha256)."""
import hashlib

import numpy as np
import pytest

import ggufsafe
from conftest import SAMPLE, SAMPLE_SHA


@pytest.fixture
def sample():
    with ggufsafe.open(SAMPLE) as f:
        yield f


def ggml_hashes():
    out = []
    with open(SAMPLE_SHA, encoding="utf-8") as fh:
        for line in fh:
            digest, name, type_name = line.split()
            out.append((digest, name, type_name))
    return out


def test_scalars_exact(sample):
    m = sample.metadata
    assert sample.version == 3
    assert len(m) == 32
    assert m["general.architecture"] == "llama"
    assert m["oracle.u8"] == 200 and m["oracle.i8"] == -100
    assert m["oracle.u16"] == 60000 and m["oracle.i16"] == -30000
    assert m["oracle.i32"] == -2000000000
    assert m["oracle.u64"] == 18000000000000000000
    assert m["oracle.i64"] == -9000000000000000000
    assert m["oracle.f64"] == 3.141592653589793
    assert m["llama.attention.layer_norm_rms_epsilon"] == float(np.float32(1e-5))
    assert m["oracle.bool"] is True
    assert m["oracle.utf8"] == "h\u00e9llo \u2713 \U0001f600"
    assert m["oracle.empty"] == ""
    assert m[b"general.alignment"] == 32
    assert "oracle.u8" in m and b"oracle.u8" in m and "absent" not in m and 3 not in m
    with pytest.raises(KeyError):
        m["absent.key"]
    info = m.info("oracle.u16")
    assert (info.type, info.elem_type, info.length) == ("u16", "u16", 1)
    assert m.info("tokenizer.ggml.tokens")[1:4] == ("array", "string", 1000)
    assert list(m)[:3] == ["general.architecture", "general.name", "general.quantization_version"]


def test_mapping_is_read_only(sample):
    with pytest.raises(TypeError):
        sample.metadata["general.name"] = "x"  # type: ignore[index]


def test_arrays_are_lazy_sequences(sample):
    tokens = sample.metadata["tokenizer.ggml.tokens"]
    assert isinstance(tokens, ggufsafe.GGUFArray)
    assert tokens.elem_type == "string" and len(tokens) == 1000
    listed = list(tokens)
    assert tokens[-1] == listed[-1] and tokens[0] == listed[0]
    view = tokens[10:20:3]
    assert isinstance(view, ggufsafe.GGUFArray) and list(view) == listed[10:20:3]
    assert view[-1] == listed[19] and len(tokens[::-1]) == 1000 and tokens[::-1][0] == listed[-1]
    with pytest.raises(IndexError):
        tokens[1000]
    with pytest.raises(TypeError):
        tokens["a"]  # type: ignore[index]
    with pytest.raises(TypeError):
        tokens.to_numpy()
    scores = sample.metadata["tokenizer.ggml.scores"]
    arr = scores.to_numpy()
    assert arr.dtype == np.float32 and arr.shape == (1000,)
    assert [float(x) for x in arr[:5]] == list(scores[:5])
    assert scores[2:8].to_numpy().tolist() == arr[2:8].tolist()
    assert sample.metadata["oracle.bool_arr"].to_numpy().dtype == np.bool_
    assert list(sample.metadata["oracle.bool_arr"]) == sample.metadata["oracle.bool_arr"].tolist()
    assert sample.metadata["oracle.empty_arr"].tolist() == []
    assert sample.metadata["oracle.f64_arr"] == list(sample.metadata["oracle.f64_arr"])


def test_tensors_and_layout(sample):
    tensors = sample.tensors
    assert len(tensors) == 33
    t = tensors[0]
    assert t == ggufsafe.TensorInfo("blk.0.q4_0.weight", "q4_0", 2, (8, 512), 4096, 2304, 63840,
                                    (512, 8), 0, True)
    assert sample.tensor("blk.0.q4_0.weight") == t and tensors[-1] == list(tensors)[-1]
    with pytest.raises(KeyError):
        sample.tensor("nope")
    layout = sample.layout
    assert (layout.data_offset, layout.predicted_size, layout.actual_size) == (63840, 148896,
                                                                               148896)
    assert layout.alignment == 32 and layout.trailing_bytes == 0


def test_dequantize_matches_ggml(sample):
    hashes = ggml_hashes()
    assert [name for _, name, _ in hashes] == [t.name for t in sample.tensors]
    decoded = 0
    for digest, name, type_name in hashes:
        t = sample.tensor(name)
        assert t.type_name == type_name
        if digest == "-":
            with pytest.raises(ggufsafe.GGUFError) as e:
                sample.dequantize(name)
            assert e.value.status == "GS_E_NOT_DECODABLE"
            continue
        x = sample.dequantize(name)
        assert x.dtype == np.float32 and x.shape == t.shape
        assert hashlib.sha256(x.astype("<f4").tobytes()).hexdigest() == digest, name
        # Rows alone, and the raw bytes through ggufsafe.dequantize: the same values.
        assert np.array_equal(sample.dequantize(name, rows=slice(3, 6)),
                              x.reshape(-1, t.ne[0])[3:6], equal_nan=True)
        assert sample.dequantize(name, rows=(0, 0)).shape == (0, t.ne[0])
        alone = ggufsafe.dequantize(sample.tensor_bytes(name), type_name, t.n_elements)
        assert alone.tobytes() == x.tobytes()
        assert ggufsafe.dequantize(sample.tensor_bytes(name), t.type_id,
                                   t.n_elements).tobytes() == x.tobytes()
        decoded += 1
    assert decoded == 28


def test_dequantize_errors(sample):
    name = "blk.0.q4_0.weight"
    with pytest.raises(IndexError):
        sample.dequantize(name, rows=(7, 9))
    with pytest.raises(ValueError):
        sample.dequantize(name, rows=slice(0, 8, 2))
    with pytest.raises(TypeError):
        sample.dequantize(name, rows=3)  # type: ignore[arg-type]
    raw = sample.tensor_bytes(name)
    with pytest.raises(ggufsafe.GGUFError) as e:
        ggufsafe.dequantize(raw[:-1], "q4_0", 4096)
    assert e.value.status == "GS_E_SIZE_MISMATCH"
    with pytest.raises(ggufsafe.GGUFError) as e:
        ggufsafe.dequantize(raw, 4, 4096)
    assert e.value.status == "GS_E_REMOVED_TENSOR_TYPE"
    with pytest.raises(ValueError, match="unknown ggml type"):
        ggufsafe.dequantize(raw, "q4_9", 4096)


def test_closed_file_raises_value_error():
    f = ggufsafe.open(SAMPLE)
    tokens = f.metadata["tokenizer.ggml.tokens"]
    scores = f.metadata["tokenizer.ggml.scores"]
    meta, tensors = f.metadata, f.tensors
    f.close()
    f.close()  # twice is fine
    assert f.closed
    for use in (lambda: tokens[0], lambda: len(tokens) and list(tokens), lambda: meta["oracle.u8"],
                lambda: len(meta), lambda: tensors[0], lambda: f.version, lambda: f.layout,
                lambda: f.dequantize("blk.0.q4_0.weight"), lambda: scores.to_numpy(),
                lambda: f.tensor("blk.0.q4_0.weight")):
        with pytest.raises(ValueError, match="closed"):
            use()


def test_values_outlive_an_unreferenced_file():
    tokens = ggufsafe.open(SAMPLE).metadata["tokenizer.ggml.tokens"]
    assert len(tokens) == 1000 and tokens[1] == list(tokens)[1]
