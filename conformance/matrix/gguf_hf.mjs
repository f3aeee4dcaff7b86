// @huggingface/gguf (version pinned in package.json) on one local file, the way the Hub reads
// metadata: gguf(path, { allowLocalFile, computeParametersCount }). See classify.mjs.
import { gguf } from "@huggingface/gguf";
import { runReader } from "./classify.mjs";

await runReader((path) => gguf(path, { allowLocalFile: true, computeParametersCount: true }));
