// hyllama (version pinned in package.json) on one local file: ggufMetadata(ArrayBuffer) over
// the whole file. See classify.mjs.
import { readFileSync } from "node:fs";
import { ggufMetadata } from "hyllama";
import { runReader } from "./classify.mjs";

await runReader((path) => {
  const bytes = readFileSync(path);
  ggufMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
});
