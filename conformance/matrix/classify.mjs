// How the matrix classifies what a JavaScript reader threw (README.md, "Verdicts"):
//   rejected  a plain Error, which both readers throw from their own checks, or a RangeError
//             from a bounds-checked DataView read ("Offset is outside the bounds of the
//             DataView"): the runtime's bounds check standing in for a length check;
//   crashed   anything else: a TypeError or ReferenceError (a bug in the reader), a RangeError
//             of resource exhaustion (call stack, array or buffer length, allocation), or a
//             thrown value that is not an Error.
export function classify(e) {
  const detail = e instanceof Error ? `${e.constructor.name}: ${e.message}` : `non-Error thrown: ${String(e)}`;
  const clean =
    e instanceof Error &&
    (e.constructor === Error || (e instanceof RangeError && /outside the bounds of the DataView/.test(e.message)));
  return { verdict: clean ? "rejected" : "crashed", detail: detail.replace(/\s+/g, " ").slice(0, 200) };
}

// Runs one reader on the file named by argv[2]; prints "accepted", "rejected: ..." or
// "crashed: ..." and exits 0, 1 or 3.
export async function runReader(read) {
  const report = (e) => {
    const { verdict, detail } = classify(e);
    console.log(`${verdict}: ${detail}`);
    process.exit(verdict === "rejected" ? 1 : 3);
  };
  process.on("uncaughtException", report);
  process.on("unhandledRejection", report);
  try {
    await read(process.argv[2]);
  } catch (e) {
    report(e);
  }
  console.log("accepted");
  process.exit(0);
}
