/* gs_detect: what a file is when it is not the GGUF it was meant to be. The usual broken
 * download is something else entirely: a Git LFS pointer, a hub's HTML error page, a storage
 * service's XML or an API's JSON error reply, another model format (safetensors, PyTorch, ONNX,
 * llama.cpp's pre-GGUF formats) or an archive. Each is named from its first bytes so that the
 * report can say what happened and what to do.
 *
 * Every read is bounded by the n bytes given (at most GS_DETECT_BYTES): each test asks `has`
 * first. Nothing is allocated, decompressed or interpreted beyond recognising a magic, a zip or
 * tar entry's header (one level: what a stored first entry holds) and a few text fields quoted in
 * `detail`, which is escaped. Tests run from the most specific magic to the loosest text rule,
 * so that binary formats are never mistaken for text. */
#include <stdio.h>
#include <string.h>

#include "abi_compat.h"
#include "error.h"
#include "ggufsafe.h"
#include "le_load.h"
#include "source.h"
#include "text_escape.h"
#include "utf8.h"

typedef struct format_row {
    const char *name;
    const char *description;
    const char *advice;
    bool container;
} format_row;

#define CONVERT_HF "convert the model from its Hugging Face directory with llama.cpp's " \
                   "convert_hf_to_gguf.py, or download a GGUF build of it, and certify that"

static const format_row formats[GS_FORMAT_COUNT] = {
    [GS_FORMAT_UNKNOWN] = {"unknown", "a file in no format ggufsafe recognises, not a GGUF model",
                           "check where the file came from and download the GGUF file again",
                           false},
    [GS_FORMAT_GGUF] = {"gguf", "a GGUF file", "", false},
    [GS_FORMAT_EMPTY] = {"empty", "an empty file (0 bytes)",
                         "download the file again: nothing of it was written", false},
    [GS_FORMAT_GGUF_BIG_ENDIAN] =
        {"gguf-big-endian",
         "a big-endian GGUF file (written for s390x or POWER), which little-endian readers "
         "cannot use",
         "convert a copy to little-endian with gguf-py's converter (pip install gguf; "
         "gguf-convert-endian COPY little) and certify the copy",
         false},
    [GS_FORMAT_GIT_LFS_POINTER] =
        {"git-lfs-pointer",
         "a Git LFS pointer: the small text file Git leaves in place of the model when Git LFS "
         "is not used",
         "fetch the real file: run 'git lfs install' and then 'git lfs pull' in the clone, or "
         "download the file itself from the hub (its download link, not the repository view)",
         false},
    [GS_FORMAT_HTML] =
        {"html",
         "an HTML web page, not a model: the server sent an error, login or licence page "
         "instead of the file",
         "open the download link in a browser to see why (a login, an accepted licence or an "
         "access token may be needed), then download the file again",
         false},
    [GS_FORMAT_XML] =
        {"xml",
         "an XML document, not a model: usually a storage service's error reply (access "
         "denied, an expired link)",
         "get a fresh download link or the right credentials and download the file again",
         false},
    [GS_FORMAT_JSON] =
        {"json", "a JSON document, not a model: usually a hub or API error reply",
         "read the message it holds, fix the request (access token, repository, revision or "
         "file name) and download the file again",
         false},
    [GS_FORMAT_TEXT] = {"text", "a text file, not a model (an error message, or a listing)",
                        "read it to see what the server said, then download the file again",
                        false},
    [GS_FORMAT_SAFETENSORS] = {"safetensors",
                               "a safetensors file (Hugging Face's tensor format), not GGUF",
                               CONVERT_HF, false},
    [GS_FORMAT_PYTORCH_ZIP] =
        {"pytorch-zip", "a PyTorch checkpoint (torch.save's zip format), not GGUF",
         CONVERT_HF "; never load an untrusted checkpoint without torch.load(weights_only=True): "
                    "its pickle can run code",
         false},
    [GS_FORMAT_PICKLE] =
        {"pickle", "a Python pickle (torch.save's format before PyTorch 1.6, or another object)",
         "do not load it unless you trust its source, since unpickling can run code; " CONVERT_HF,
         false},
    [GS_FORMAT_ONNX] = {"onnx", "an ONNX model, not GGUF",
                        "llama.cpp does not read ONNX: get the model's original weights and "
                        "convert them with llama.cpp's convert_hf_to_gguf.py",
                        false},
    [GS_FORMAT_GGML_LEGACY] =
        {"ggml-legacy",
         "a model in llama.cpp's format from before GGUF (ggml, ggmf, ggjt or ggla, 2023), "
         "which current llama.cpp cannot load",
         "convert it with llama.cpp's convert_llama_ggml_to_gguf.py, or download a GGUF build "
         "of the model",
         false},
    [GS_FORMAT_GZIP] = {"gzip", "a gzip-compressed file",
                        "decompress it (gunzip -k FILE) and certify the result", true},
    [GS_FORMAT_XZ] = {"xz", "an xz-compressed file",
                      "decompress it (xz -dk FILE) and certify the result", true},
    [GS_FORMAT_ZSTD] = {"zstd", "a zstd-compressed file",
                        "decompress it (zstd -d FILE) and certify the result", true},
    [GS_FORMAT_BZIP2] = {"bzip2", "a bzip2-compressed file",
                         "decompress it (bunzip2 -k FILE) and certify the result", true},
    [GS_FORMAT_ZIP] = {"zip", "a zip archive",
                       "unpack it (unzip FILE) and certify the file inside", true},
    [GS_FORMAT_7Z] = {"7z", "a 7-Zip archive",
                      "unpack it (7z x FILE) and certify the file inside", true},
    [GS_FORMAT_TAR] = {"tar", "a tar archive",
                       "unpack it (tar xf FILE) and certify the file inside", true},
};

const char *gs_format_name(gs_format format)
{
    if ((unsigned)format >= GS_FORMAT_COUNT) {
        return "unknown";
    }
    return formats[format].name;
}

/* ---- bounded access to the head ------------------------------------------------------------ */

typedef struct head {
    const uint8_t *p;
    size_t n;
} head;

static bool has(const head *h, size_t off, size_t len)
{
    return off <= h->n && len <= h->n - off;
}

static bool starts(const head *h, size_t off, const char *lit, size_t len)
{
    return has(h, off, len) && memcmp(h->p + off, lit, len) == 0;
}

static uint8_t lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* lit (lower case) at off, ignoring the case of the head. */
static bool starts_ci(const head *h, size_t off, const char *lit)
{
    size_t len = strlen(lit);
    if (!has(h, off, len)) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        if (lower(h->p[off + i]) != (uint8_t)lit[i]) {
            return false;
        }
    }
    return true;
}

/* The first position >= from where lit (lower case) starts, ignoring case; SIZE_MAX if none.
 * Quadratic in the worst case, but over at most GS_DETECT_BYTES and a literal of a few bytes. */
static size_t find_ci(const head *h, size_t from, const char *lit)
{
    for (size_t i = from; i < h->n; i++) {
        if (starts_ci(h, i, lit)) {
            return i;
        }
    }
    return SIZE_MAX;
}

static bool is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t skip_space(const head *h, size_t i)
{
    while (i < h->n && is_space(h->p[i])) {
        i++;
    }
    return i;
}

/* ---- filling the result -------------------------------------------------------------------- */

static void set_format(gs_detected *d, gs_format f)
{
    d->format = f;
    d->name = formats[f].name;
    d->description = formats[f].description;
    d->advice = formats[f].advice;
    d->container = formats[f].container;
}

static void set_detail(gs_detected *d, const uint8_t *s, size_t n)
{
    gsi_escape_text(d->detail, sizeof d->detail, s, n);
}

/* Text between from and the first byte of `end` (or the head's end), whitespace runs made one
 * space and trimmed, as the detail. */
static void detail_text_until(gs_detected *d, const head *h, size_t from, uint8_t end)
{
    uint8_t buf[GS_ERROR_TEXT_MAX];
    size_t k = 0;
    bool space = false;
    for (size_t i = from; i < h->n && h->p[i] != end && k < sizeof buf; i++) {
        uint8_t c = h->p[i];
        if (is_space(c)) {
            space = k > 0;
            continue;
        }
        if (space && k < sizeof buf) {
            buf[k++] = ' ';
        }
        space = false;
        if (k < sizeof buf) {
            buf[k++] = c;
        }
    }
    set_detail(d, buf, k);
}

static void detail_hex(gs_detected *d, const head *h)
{
    size_t k = (size_t)snprintf(d->detail, sizeof d->detail, "first bytes");
    for (size_t i = 0; i < h->n && i < 8; i++) {
        k += (size_t)snprintf(d->detail + k, sizeof d->detail - k, " %02x", h->p[i]);
    }
}

/* ---- binary formats ------------------------------------------------------------------------ */

static uint32_t load_u32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t load_u64be(const uint8_t *p)
{
    return (uint64_t)load_u32be(p) << 32 | load_u32be(p + 4);
}

/* "GGUF" (or, with fewer than 4 bytes, a prefix of it), and the big-endian forms: "GGUF" with a
 * byte-swapped version word, or the magic itself written as a big-endian number ("FUGG"). */
static bool gguf(const head *h, gs_detected *d)
{
    size_t cmp = h->n < 4 ? h->n : 4;
    bool le_magic = memcmp(h->p, "GGUF", cmp) == 0;
    bool be_magic = starts(h, 0, "FUGG", 4);
    if (!le_magic && !be_magic) {
        return false;
    }
    if (!has(h, 4, 4)) {
        if (be_magic) {
            return false; /* "FUGG" alone says too little */
        }
        set_format(d, GS_FORMAT_GGUF);
        return true;
    }
    uint32_t v = gsi_load_u32le(h->p + 4);
    uint32_t swapped = __builtin_bswap32(v);
    bool big = (v < 1 || v > 3) && swapped >= 1 && swapped <= 3;
    if (be_magic && !big) {
        return false;
    }
    set_format(d, big ? GS_FORMAT_GGUF_BIG_ENDIAN : GS_FORMAT_GGUF);
    d->version = big ? swapped : v;
    if (has(h, 8, 16)) {
        d->n_tensors = big ? load_u64be(h->p + 8) : gsi_load_u64le(h->p + 8);
        d->n_kv = big ? load_u64be(h->p + 16) : gsi_load_u64le(h->p + 16);
    }
    return true;
}

/* llama.cpp's magics before GGUF, little-endian u32s: ggml (no version), ggmf, ggjt, ggla. */
static bool ggml_legacy(const head *h, gs_detected *d)
{
    static const struct {
        uint32_t magic;
        const char *name;
        bool versioned;
    } magics[] = {{0x67676d6cu, "ggml", false},
                  {0x67676d66u, "ggmf", true},
                  {0x67676a74u, "ggjt", true},
                  {0x67676c61u, "ggla", true}};
    if (!has(h, 0, 4)) {
        return false;
    }
    uint32_t m = gsi_load_u32le(h->p);
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        if (m != magics[i].magic) {
            continue;
        }
        set_format(d, GS_FORMAT_GGML_LEGACY);
        if (magics[i].versioned && has(h, 4, 4)) {
            d->version = gsi_load_u32le(h->p + 4);
            snprintf(d->detail, sizeof d->detail, "magic %s, version %u", magics[i].name,
                     d->version);
        } else {
            snprintf(d->detail, sizeof d->detail, "magic %s", magics[i].name);
        }
        return true;
    }
    return false;
}

/* safetensors: a little-endian u64 header length (the format caps it at 100 MB), then a JSON
 * object. */
static bool safetensors(const head *h, gs_detected *d)
{
    if (!has(h, 0, 9) || h->p[8] != '{') {
        return false;
    }
    uint64_t len = gsi_load_u64le(h->p);
    if (len < 2 || len > 100000000u) {
        return false;
    }
    size_t i = skip_space(h, 9);
    if (i < h->n && h->p[i] != '"' && h->p[i] != '}') {
        return false;
    }
    set_format(d, GS_FORMAT_SAFETENSORS);
    d->size = len;
    snprintf(d->detail, sizeof d->detail, "a JSON header of %llu bytes", (unsigned long long)len);
    return true;
}

/* A pickle of protocol 2..5 starts with PROTO (0x80) and the protocol number; torch.save's
 * legacy format then pickles its magic number 0x1950a86a20f9469cfc6c as a LONG1 (0x8a 0x0a). */
static bool pickle(const head *h, gs_detected *d)
{
    if (!has(h, 0, 2) || h->p[0] != 0x80 || h->p[1] < 2 || h->p[1] > 5) {
        return false;
    }
    static const uint8_t torch_magic[12] = {0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46,
                                            0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
    set_format(d, GS_FORMAT_PICKLE);
    d->version = h->p[1];
    bool torch = has(h, 2, sizeof torch_magic) &&
                 memcmp(h->p + 2, torch_magic, sizeof torch_magic) == 0;
    snprintf(d->detail, sizeof d->detail, "pickle protocol %u%s", d->version,
             torch ? ", torch.save's legacy checkpoint" : "");
    return true;
}

/* ONNX ModelProto: field 1 (ir_version, a one-byte varint) first, then another ModelProto field:
 * producer_name, producer_version, domain, doc_string (short printable strings), model_version,
 * graph or opset_import. */
static bool onnx(const head *h, gs_detected *d)
{
    if (!has(h, 0, 3) || h->p[0] != 0x08 || h->p[1] < 1 || h->p[1] > 32) {
        return false;
    }
    uint8_t tag = h->p[2];
    if (tag == 0x12 || tag == 0x1a || tag == 0x22 || tag == 0x32) {
        if (!has(h, 3, 1) || h->p[3] == 0 || h->p[3] >= 0x80) {
            return false;
        }
        size_t len = h->p[3];
        for (size_t i = 4; i < 4 + len && i < h->n; i++) {
            if (h->p[i] < 0x20 || h->p[i] > 0x7e) {
                return false;
            }
        }
        set_format(d, GS_FORMAT_ONNX);
        if (tag == 0x12) {
            char name[80];
            gsi_escape_text(name, sizeof name, h->p + 4, has(h, 4, len) ? len : h->n - 4);
            snprintf(d->detail, sizeof d->detail, "producer '%s'", name);
        }
        d->version = h->p[1];
        return true;
    }
    if (tag == 0x28 || tag == 0x3a || tag == 0x42) {
        set_format(d, GS_FORMAT_ONNX);
        d->version = h->p[1];
        return true;
    }
    return false;
}

static gs_format detect_in(const head *h, gs_detected *d, bool inner);

/* What the bytes of a stored archive entry hold, starting at off (one level only). */
static void look_inside(const head *h, size_t off, gs_detected *d)
{
    if (off >= h->n) {
        return;
    }
    head entry = {h->p + off, h->n - off};
    gs_detected in;
    memset(&in, 0, sizeof in);
    d->inner = detect_in(&entry, &in, true);
}

/* A zip local file header: "PK\3\4", the method at 8, name and extra lengths at 26 and 28, the
 * name at 30. torch.save's zips name their first entry ".../data.pkl". */
static bool zip(const head *h, gs_detected *d)
{
    if (!starts(h, 0, "PK\x03\x04", 4) && !starts(h, 0, "PK\x05\x06", 4) &&
        !starts(h, 0, "PK\x07\x08", 4)) {
        return false;
    }
    set_format(d, GS_FORMAT_ZIP);
    if (!starts(h, 0, "PK\x03\x04", 4) || !has(h, 0, 30)) {
        return true;
    }
    uint16_t method = gsi_load_u16le(h->p + 8);
    size_t name_len = gsi_load_u16le(h->p + 26);
    size_t extra_len = gsi_load_u16le(h->p + 28);
    size_t shown = has(h, 30, name_len) ? name_len : h->n - 30;
    const uint8_t *name = h->p + 30;
    static const char pkl[] = "data.pkl";
    size_t pl = sizeof pkl - 1;
    if (shown == name_len && name_len >= pl && memcmp(name + name_len - pl, pkl, pl) == 0 &&
        (name_len == pl || name[name_len - pl - 1] == '/')) {
        set_format(d, GS_FORMAT_PYTORCH_ZIP);
    } else if (method == 0) {
        look_inside(h, 30 + name_len + extra_len, d);
    }
    char entry[80];
    gsi_escape_text(entry, sizeof entry, name, shown);
    snprintf(d->detail, sizeof d->detail, "first entry '%s'%s", entry,
             method == 0 ? ", stored" : ", compressed");
    return true;
}

/* POSIX and GNU tar: "ustar" at 257; the first member's name at 0, its data at 512. */
static bool tar(const head *h, gs_detected *d)
{
    if (!starts(h, 257, "ustar", 5)) {
        return false;
    }
    set_format(d, GS_FORMAT_TAR);
    size_t name_len = 0;
    while (name_len < 100 && h->p[name_len] != 0) {
        name_len++;
    }
    char entry[80];
    gsi_escape_text(entry, sizeof entry, h->p, name_len);
    snprintf(d->detail, sizeof d->detail, "first member '%s'", entry);
    uint8_t type = h->p[156];
    if (type == '0' || type == 0) {
        look_inside(h, 512, d);
    }
    return true;
}

/* gzip (RFC 1952): 1f 8b, method 8; with FNAME, the original file name follows the header (and
 * the FEXTRA field, when there is one). */
static bool gzip(const head *h, gs_detected *d)
{
    if (!starts(h, 0, "\x1f\x8b\x08", 3)) {
        return false;
    }
    set_format(d, GS_FORMAT_GZIP);
    if (!has(h, 0, 10) || (h->p[3] & 0x08) == 0) {
        return true;
    }
    size_t i = 10;
    if ((h->p[3] & 0x04) != 0) {
        if (!has(h, 10, 2)) {
            return true;
        }
        i = 12 + (size_t)gsi_load_u16le(h->p + 10);
    }
    size_t end = i;
    while (end < h->n && h->p[end] != 0) {
        end++;
    }
    if (end > i && end < h->n) {
        char name[96];
        gsi_escape_text(name, sizeof name, h->p + i, end - i);
        snprintf(d->detail, sizeof d->detail, "original name '%s'", name);
    }
    return true;
}

static bool compressed(const head *h, gs_detected *d)
{
    if (gzip(h, d)) {
        return true;
    }
    if (starts(h, 0, "\xfd" "7zXZ\x00", 6)) {
        set_format(d, GS_FORMAT_XZ);
        return true;
    }
    if (starts(h, 0, "\x28\xb5\x2f\xfd", 4)) {
        set_format(d, GS_FORMAT_ZSTD);
        return true;
    }
    if (starts(h, 0, "7z\xbc\xaf\x27\x1c", 6)) {
        set_format(d, GS_FORMAT_7Z);
        return true;
    }
    /* "BZh" and the block size, then a block's or the end of stream's magic */
    if (has(h, 0, 4) && starts(h, 0, "BZh", 3) && h->p[3] >= '1' && h->p[3] <= '9' &&
        (!has(h, 4, 6) || starts(h, 4, "\x31\x41\x59\x26\x53\x59", 6) ||
         starts(h, 4, "\x17\x72\x45\x38\x50\x90", 6))) {
        set_format(d, GS_FORMAT_BZIP2);
        return true;
    }
    return zip(h, d) || tar(h, d);
}

/* ---- text formats -------------------------------------------------------------------------- */

/* version https://git-lfs.github.com/spec/v1, then "oid sha256:<hex>" and "size <bytes>". */
static bool lfs_pointer(const head *h, size_t t, gs_detected *d)
{
    static const char first[] = "version https://git-lfs.github.com/spec/";
    if (!starts(h, t, first, sizeof first - 1)) {
        return false;
    }
    set_format(d, GS_FORMAT_GIT_LFS_POINTER);
    size_t oid = SIZE_MAX, oid_len = 0;
    size_t at = find_ci(h, t, "\noid sha256:");
    if (at != SIZE_MAX) {
        oid = at + 12;
        while (oid + oid_len < h->n && oid_len < 64 &&
               ((h->p[oid + oid_len] >= '0' && h->p[oid + oid_len] <= '9') ||
                (h->p[oid + oid_len] >= 'a' && h->p[oid + oid_len] <= 'f'))) {
            oid_len++;
        }
    }
    at = find_ci(h, t, "\nsize ");
    if (at != SIZE_MAX) {
        uint64_t v = 0;
        bool ok = false;
        for (size_t i = at + 6; i < h->n && h->p[i] >= '0' && h->p[i] <= '9'; i++) {
            unsigned digit = (unsigned)(h->p[i] - '0');
            if (v > (UINT64_MAX - digit) / 10) {
                ok = false;
                break;
            }
            v = v * 10 + digit;
            ok = true;
        }
        if (ok) {
            d->size = v;
        }
    }
    if (oid_len > 0) {
        snprintf(d->detail, sizeof d->detail, "oid sha256:%.*s, size %llu bytes", (int)oid_len,
                 (const char *)h->p + oid, (unsigned long long)d->size);
    }
    return true;
}

/* The text of the first <tag>...</tag> at or after from, as the detail (with a prefix). */
static bool tag_text(const head *h, const char *open, gs_detected *d)
{
    size_t at = find_ci(h, 0, open);
    if (at == SIZE_MAX) {
        return false;
    }
    size_t gt = at + strlen(open);
    while (gt < h->n && h->p[gt] != '>') {
        gt++;
    }
    if (gt >= h->n) {
        return false;
    }
    detail_text_until(d, h, gt + 1, '<');
    return d->detail[0] != '\0';
}

static bool markup(const head *h, size_t t, gs_detected *d)
{
    if (t >= h->n || h->p[t] != '<') {
        return false;
    }
    bool html = starts_ci(h, t, "<!doctype html") || starts_ci(h, t, "<html") ||
                starts_ci(h, t, "<head") || starts_ci(h, t, "<body") ||
                find_ci(h, t, "<html") != SIZE_MAX;
    if (html) {
        set_format(d, GS_FORMAT_HTML);
        if (!tag_text(h, "<title", d)) {
            (void)tag_text(h, "<h1", d);
        }
        return true;
    }
    bool xml = starts_ci(h, t, "<?xml") ||
               (has(h, t + 1, 1) && ((lower(h->p[t + 1]) >= 'a' && lower(h->p[t + 1]) <= 'z')));
    if (!xml) {
        return false;
    }
    set_format(d, GS_FORMAT_XML);
    /* S3, GCS and Azure errors: <Error><Code>AccessDenied</Code><Message>...</Message> */
    if (!tag_text(h, "<message", d)) {
        (void)tag_text(h, "<code", d);
    }
    return true;
}

/* The string value of the first "error", "message", "detail" or "msg" member whose value is a
 * string, as the detail. */
static void json_message(const head *h, gs_detected *d)
{
    static const char *const keys[] = {"\"error\"", "\"message\"", "\"detail\"", "\"msg\""};
    for (size_t i = 0; i < h->n; i++) {
        if (h->p[i] != '"') {
            continue;
        }
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            if (!starts_ci(h, i, keys[k])) {
                continue;
            }
            size_t j = skip_space(h, i + strlen(keys[k]));
            if (j >= h->n || h->p[j] != ':') {
                continue;
            }
            j = skip_space(h, j + 1);
            if (j >= h->n || h->p[j] != '"') {
                continue;
            }
            size_t end = j + 1;
            while (end < h->n && h->p[end] != '"') {
                end += h->p[end] == '\\' ? 2 : 1;
            }
            if (end > h->n) {
                end = h->n;
            }
            set_detail(d, h->p + j + 1, end - j - 1);
            return;
        }
    }
}

static bool json(const head *h, size_t t, gs_detected *d)
{
    if (t >= h->n || (h->p[t] != '{' && h->p[t] != '[')) {
        return false;
    }
    size_t next = skip_space(h, t + 1);
    if (next < h->n && h->p[next] != '"' && h->p[next] != '{' && h->p[next] != '[' &&
        h->p[next] != '}' && h->p[next] != ']' && !(h->p[next] >= '0' && h->p[next] <= '9') &&
        h->p[next] != '-' && h->p[next] != 't' && h->p[next] != 'f' && h->p[next] != 'n') {
        return false;
    }
    set_format(d, GS_FORMAT_JSON);
    json_message(h, d);
    return true;
}

/* Printable UTF-8 with tabs and line breaks, a sequence cut by the end of the head allowed. */
static bool text(const head *h, gs_detected *d)
{
    size_t i = 0;
    while (i < h->n) {
        uint8_t c = h->p[i];
        if (c >= 0x20 && c < 0x7f) {
            i++;
        } else if (c == '\t' || c == '\n' || c == '\r') {
            i++;
        } else if (c >= 0x80) {
            size_t len = gsi_utf8_seq_len(h->p + i, h->n - i);
            if (len == 0) {
                if (h->n - i >= 4 || h->n < GS_DETECT_BYTES) {
                    return false;
                }
                break; /* cut by the end of what was read */
            }
            i += len;
        } else {
            return false;
        }
    }
    set_format(d, GS_FORMAT_TEXT);
    detail_text_until(d, h, 0, '\n');
    return true;
}

/* ---- the order of the tests ---------------------------------------------------------------- */

static gs_format detect_in(const head *h, gs_detected *d, bool inner)
{
    set_format(d, GS_FORMAT_UNKNOWN);
    if (h->n == 0) {
        set_format(d, GS_FORMAT_EMPTY);
        return d->format;
    }
    if (gguf(h, d) || ggml_legacy(h, d) || safetensors(h, d) || pickle(h, d)) {
        return d->format;
    }
    if (!inner && compressed(h, d)) {
        return d->format;
    }
    if (onnx(h, d)) {
        return d->format;
    }
    /* text: after a UTF-8 byte order mark and leading white space */
    size_t t = starts(h, 0, "\xef\xbb\xbf", 3) ? 3 : 0;
    t = skip_space(h, t);
    if (lfs_pointer(h, t, d) || markup(h, t, d) || json(h, t, d) || text(h, d)) {
        return d->format;
    }
    detail_hex(d, h);
    return d->format;
}

gs_status gs_detect_sized(const void *head_bytes, size_t n, gs_detected *out, size_t out_size)
{
    if (out == NULL || out_size < sizeof(gs_detected) || (head_bytes == NULL && n > 0)) {
        return GS_E_INVALID_ARGUMENT;
    }
    static const uint8_t none[1] = {0};
    head h = {head_bytes != NULL ? head_bytes : none, n < GS_DETECT_BYTES ? n : GS_DETECT_BYTES};
    gs_detected d;
    memset(&d, 0, sizeof d);
    (void)detect_in(&h, &d, false);
    d.file_size = n;
    gsi_copy_sized(out, out_size, &d, sizeof d);
    return GS_OK;
}

gs_status gs_detect_file_sized(const char *path, gs_detected *out, size_t out_size,
                               gs_error *err)
{
    gsi_error_clear(err);
    if (path == NULL || out == NULL || out_size < sizeof(gs_detected)) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "path or out is NULL, or out_size too small");
    }
    gsi_source src;
    char detail[GS_ERROR_TEXT_MAX] = {0};
    gs_status st = gsi_source_open(path, &src, detail, sizeof detail);
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "%s", detail);
    }
    const uint64_t size = src.id.size;
    uint8_t buf[GS_DETECT_BYTES];
    size_t n = size < GS_DETECT_BYTES ? (size_t)size : GS_DETECT_BYTES;
    /* pread, not the mapping: a file cut meanwhile is an error, never a SIGBUS */
    st = n > 0 ? gsi_source_pread(&src, 0, buf, n) : GS_OK;
    gsi_source_close(&src, NULL);
    if (st != GS_OK) {
        return gsi_fail(err, GS_E_IO, 0, GS_CONTEXT_NONE, NULL, 0,
                        "reading the first %zu bytes: %s", n,
                        st == GS_E_TRUNCATED ? "the file shrank while it was read"
                                             : "read failed");
    }
    st = gs_detect_sized(buf, n, out, out_size);
    out->file_size = size;
    return st;
}
