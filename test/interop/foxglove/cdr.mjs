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
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parse } from "@foxglove/rosmsg";
import { MessageReader, MessageWriter } from "@foxglove/rosmsg2-serialization";

const PRIMITIVES = new Set([
  "bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32",
  "int64", "uint64", "float32", "float64", "string", "wstring",
]);
const SEPARATOR = "\n" + "=".repeat(80) + "\n";

const sets = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, dirs] = arg.split("=");
    return [name, dirs.split(",")];
  }),
);

function readMsg(dirs, ref) {
  const [pkg, name] = ref.split("/");
  for (const dir of dirs) {
    const path = join(dir, pkg, "msg", name + ".msg");
    if (existsSync(path)) return readFileSync(path, "utf8");
  }
  throw new Error(`no definition of ${ref} in ${dirs.join(", ")}`);
}

// references returns the message types a .msg text refers to, as pkg/Type.
function references(text, pkg) {
  const refs = [];
  for (const raw of text.split("\n")) {
    const line = raw.split("#")[0].trim();
    if (line === "") continue;
    const type = line.split(/\s+/)[0].replace(/<=\d+/, "").replace(/\[.*\]$/, "");
    if (PRIMITIVES.has(type)) continue;
    refs.push(type.includes("/") ? type : `${pkg}/${type}`);
  }
  return refs;
}

// fullDefinition concatenates the .msg text of ref and of every type it
// references, in the format rosbag2 and MCAP use for ros2msg schemas.
function fullDefinition(dirs, ref) {
  const seen = new Set([ref]);
  const queue = [ref];
  const parts = [];
  while (queue.length > 0) {
    const cur = queue.shift();
    const text = readMsg(dirs, cur);
    parts.push(cur === ref ? text : `MSG: ${cur}\n${text}`);
    for (const dep of references(text, cur.split("/")[0])) {
      if (!seen.has(dep)) {
        seen.add(dep);
        queue.push(dep);
      }
    }
  }
  return parts.join(SEPARATOR);
}

const codecs = new Map();
function codec(set, type) {
  const key = `${set} ${type}`;
  if (!codecs.has(key)) {
    const ref = type.replace("/msg/", "/");
    const defs = parse(fullDefinition(sets[set], ref), { ros2: true });
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
