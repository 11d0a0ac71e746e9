// Reads ROS 2 .msg files into the "full definition" text that @foxglove/rosmsg
// parses: the type's own .msg, then each type it references after a line of
// '=' and "MSG: pkg/Type", as rosbag2 and MCAP store ros2msg schemas.
const { readFileSync, existsSync } = require("node:fs");
const { join } = require("node:path");

const PRIMITIVES = new Set([
  "bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32",
  "int64", "uint64", "float32", "float64", "string", "wstring",
]);
const SEPARATOR = "\n" + "=".repeat(80) + "\n";

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

// fullDefinition returns the definition text of ref ("pkg/Type" or
// "pkg/msg/Type"), looked up in dirs (each holding <pkg>/msg/*.msg).
function fullDefinition(dirs, ref) {
  ref = ref.replace("/msg/", "/");
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

module.exports = { fullDefinition };
