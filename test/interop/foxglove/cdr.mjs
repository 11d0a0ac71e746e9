// Independent CDR check for navnode's generated message codecs.
//
// Usage: node cdr.mjs SET=DIR[,DIR...]... < cases.json > results.json
//
// Each SET names a search path of ROS 2 interface directories (<pkg>/msg/*.msg),
// like msgs/gen's -set flag. stdin is a JSON array of cases
//   {"set": "jazzy", "type": "geometry_msgs/msg/Pose", "value": {...}, "go": "<hex>"}
// where value is the message as JSON keyed by ROS field names (int64 and uint64
// as decimal strings) and go is navnode's encoding of it. For each case this
// script parses the .msg files with @foxglove/rosmsg, encodes value with
// @foxglove/rosmsg2-serialization's MessageWriter, and decodes navnode's bytes
// with its MessageReader. stdout is a JSON array of
//   {"fox": "<hex>", "decoded": {...}} or {"error": "..."}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parse } from "@foxglove/rosmsg";
import { MessageReader, MessageWriter } from "@foxglove/rosmsg2-serialization";

const { fullDefinition } = createRequire(import.meta.url)("./definitions.cjs");

const sets = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, dirs] = arg.split("=");
    return [name, dirs.split(",")];
  }),
);

const codecs = new Map();
function codec(set, type) {
  const key = `${set} ${type}`;
  if (!codecs.has(key)) {
    const defs = parse(fullDefinition(sets[set], type), { ros2: true });
    // A .msg with only constants (rcl_interfaces/ParameterType) is, in ROS 2's
    // IDL, a struct with only the dummy member and a separate constants module.
    // MessageWriter would mistake the parsed type for the constants module, so
    // hand it the struct with the constants left out.
    defs[0] = { ...defs[0], definitions: defs[0].definitions.filter((f) => !f.isConstant) };
    const byName = new Map(defs.map((d) => [d.name ?? "", d.definitions]));
    codecs.set(key, {
      root: defs[0].definitions, // parse returns the requested type first
      byName,
      writer: new MessageWriter(defs),
      reader: new MessageReader(defs),
    });
  }
  return codecs.get(key);
}

// toFoxglove converts navnode's JSON form to what MessageWriter takes:
// BigInt for 64-bit integers.
function toFoxglove(fields, value, byName) {
  const out = {};
  for (const f of fields) {
    if (f.isConstant) continue;
    const conv = (x) => {
      if (f.isComplex) return toFoxglove(byName.get(f.type), x, byName);
      if (f.type === "int64" || f.type === "uint64") return BigInt(x);
      return x;
    };
    const v = value[f.name];
    out[f.name] = f.isArray ? v.map(conv) : conv(v);
  }
  return out;
}

// toJSON converts MessageReader output to navnode's JSON form.
function toJSON(x) {
  if (typeof x === "bigint") return x.toString();
  if (ArrayBuffer.isView(x)) return Array.from(x, toJSON);
  if (Array.isArray(x)) return x.map(toJSON);
  if (x !== null && typeof x === "object") {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, toJSON(v)]));
  }
  return x;
}

const hex = (bytes) => Buffer.from(bytes).toString("hex");

const cases = JSON.parse(readFileSync(0, "utf8"));
const results = cases.map((c) => {
  try {
    const { root, byName, writer, reader } = codec(c.set, c.type);
    const fox = writer.writeMessage(toFoxglove(root, c.value, byName));
    const decoded = toJSON(reader.readMessage(Buffer.from(c.go, "hex")));
    return { fox: hex(fox), decoded };
  } catch (err) {
    return { error: `${c.type}: ${err.stack ?? err}` };
  }
});
process.stdout.write(JSON.stringify(results));
