// A JavaScript ROS 2 node on its own RTPS stack (@foxglove/ros2 and
// @foxglove/rtps from npm) that plays the other node in navnode's interop
// tests. It shares no code with navnode.
//
// usage: node ros2peer.cjs MODE; domain from ROS_DOMAIN_ID, .msg files from
// NAVNODE_INTERFACES (a directory of <pkg>/msg/*.msg). Modes as the C peers:
// goal, plan, latemap, cloudsend, cloudrecv. Prints "OK ..." and exits 0,
// or "FAIL ..." and 1.
//
// @foxglove/ros2 can only subscribe. Subscribing uses it as shipped, except
// that it hard-codes transient-local readers, which DDS will not match with
// the volatile writers ROS uses by default: the durability is set per topic.
// Publishing (goal, cloudsend) is done by the Publisher below, a reliable
// writer assembled from @foxglove/rtps's participant, discovery, history
// and submessage classes, with fragmentation (DATA_FRAG) and fragment
// repair (NACK_FRAG), which @foxglove/rtps does not implement for sending.
"use strict";
const path = require("node:path");
const { RosNode } = require("@foxglove/ros2");
const { UdpSocketNode } = require("@foxglove/ros2/nodejs");
const rtps = require("@foxglove/rtps");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader, MessageWriter } = require("@foxglove/rosmsg2-serialization");
const { fullDefinition } = require("./definitions.cjs");

// Classes @foxglove/rtps uses but does not export.
const rtpsDir = path.dirname(require.resolve("@foxglove/rtps"));
const submsg = require(path.join(rtpsDir, "messaging", "submessages"));
const { SubMessageGroup } = require(path.join(rtpsDir, "messaging", "SubMessageGroup"));

const DOMAIN = Number(process.env.ROS_DOMAIN_ID ?? 0);
const INTERFACES = process.env.NAVNODE_INTERFACES;
const INFINITE = { sec: 0x7fffffff, nsec: 0xffffffff };
const FRAGMENT = 60000; // bytes of sample per DATA_FRAG datagram
const CLOUD_BYTES = 8 << 20;

let failures = 0;
function fail(what) {
  console.log(`FAIL ${what}`);
  failures++;
}
function check(what, got, want) {
  if (got !== want) fail(`${what} = ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function codec(type) {
  const defs = parse(fullDefinition([INTERFACES], type), { ros2: true });
  return { reader: new MessageReader(defs), writer: new MessageWriter(defs) };
}

// --- the messages of ../expect.h ---

const cloudByte = (i) => (Math.imul(i, 31) + (i >>> 11)) & 0xff;
const mapCell = (i) => (i % 102) - 1;

function goalMessage() {
  return {
    header: { stamp: { sec: 1700000000, nanosec: 123456789 }, frame_id: "map" },
    pose: {
      position: { x: 1.25, y: -2.5, z: 3.75 },
      orientation: { x: 0, y: 0, z: 0.3826834323650898, w: 0.9238795325112867 },
    },
  };
}

function cloudMessage() {
  const data = new Uint8Array(CLOUD_BYTES);
  for (let i = 0; i < data.length; i++) data[i] = cloudByte(i);
  const fields = ["x", "y", "z", "intensity"].map((name, i) => ({ name, offset: 4 * i, datatype: 7, count: 1 }));
  return {
    header: { stamp: { sec: 9, nanosec: 10 }, frame_id: "lidar" },
    height: 1, width: CLOUD_BYTES / 16, fields, is_bigendian: false,
    point_step: 16, row_step: CLOUD_BYTES, data, is_dense: true,
  };
}

function checkHeader(what, h, sec, nanosec, frame) {
  check(`${what}.stamp.sec`, h.stamp.sec, sec);
  check(`${what}.stamp.nanosec`, h.stamp.nanosec, nanosec);
  check(`${what}.frame_id`, h.frame_id, frame);
}

function checkPlan(m) {
  checkHeader("header", m.header, 42, 7, "map");
  check("len(poses)", m.poses.length, 5);
  m.poses.forEach((p, i) => {
    checkHeader(`poses[${i}].header`, p.header, 42, i, "map");
    check(`poses[${i}].position`, JSON.stringify(p.pose.position), JSON.stringify({ x: 0.5 * i, y: -i, z: 0.25 * i }));
    check(`poses[${i}].orientation`, JSON.stringify(p.pose.orientation), JSON.stringify({ x: 0, y: 0, z: 0, w: 1 }));
  });
  return `plan of ${m.poses.length} poses matches`;
}

function checkMap(m) {
  checkHeader("header", m.header, 7, 8, "map");
  check("info.map_load_time", JSON.stringify(m.info.map_load_time), JSON.stringify({ sec: 5, nanosec: 6 }));
  check("info.resolution", m.info.resolution, Math.fround(0.05));
  check("info.width", m.info.width, 200);
  check("info.height", m.info.height, 100);
  check("info.origin.position", JSON.stringify(m.info.origin.position), JSON.stringify({ x: -5, y: -2.5, z: 0.125 }));
  check("info.origin.orientation", JSON.stringify(m.info.origin.orientation), JSON.stringify({ x: 0.5, y: -0.5, z: 0.5, w: 0.5 }));
  check("len(data)", m.data.length, 20000);
  for (let i = 0; i < m.data.length && failures === 0; i++) check(`data[${i}]`, m.data[i], mapCell(i));
  return `late-joining map of ${m.data.length} cells matches`;
}

function checkCloud(m) {
  checkHeader("header", m.header, 9, 10, "lidar");
  check("height", m.height, 1);
  check("width", m.width, CLOUD_BYTES / 16);
  check(
    "fields",
    m.fields.map((f) => `${f.name}@${f.offset}:${f.datatype}x${f.count}`).join(" "),
    "x@0:7x1 y@4:7x1 z@8:7x1 intensity@12:7x1",
  );
  check("is_bigendian", m.is_bigendian, false);
  check("point_step", m.point_step, 16);
  check("row_step", m.row_step, CLOUD_BYTES);
  check("is_dense", m.is_dense, true);
  check("len(data)", m.data.length, CLOUD_BYTES);
  for (let i = 0; i < m.data.length && failures === 0; i++) check(`data[${i}]`, m.data[i], cloudByte(i));
  return `cloud of ${m.data.length} bytes matches`;
}

// --- subscribing ---

// stdinLines yields the lines the test writes to our stdin.
const stdinLines = require("node:readline").createInterface({ input: process.stdin })[Symbol.asyncIterator]();

// ready announces that our endpoint has matched navnode's and, for a
// writer, waits for "go" on stdin: the test sends it once navnode's side has
// matched too, so a volatile reader cannot miss the sample.
async function ready(isWriter) {
  console.log("READY");
  if (!isWriter) return true;
  const { value } = await stdinLines.next();
  if (value?.trim() !== "go") return fail("no go from the test"), false;
  return true;
}

// receive subscribes with the given durability and resolves with the first
// message, decoded; once a publisher matches, it says READY.
async function receive(node, topic, type, durability) {
  const { reader } = codec(type);
  const participant = node._participant;
  const subscribe = participant.subscribe;
  participant.subscribe = (opts) => subscribe.call(participant, { ...opts, durability, history: { kind: rtps.HistoryKind.KeepLast, depth: 10 } });
  const sub = node.subscribe({ topic, dataType: type, skipParsing: true });
  participant.subscribe = subscribe;
  const message = new Promise((resolve) => sub.on("message", (_ts, _msg, raw) => resolve(reader.readMessage(raw))));
  const matched = () => [...participant._participants.values()].some((pv) => pv.localReaders.has(sub.readerEntityId));
  const end = Date.now() + 10000;
  while (!matched() && Date.now() < end) await sleep(5);
  if (!matched()) throw new Error(`no publisher on ${topic} matched within 10 s`);
  if (durability === rtps.Durability.Volatile) await ready(false);
  return message;
}

// --- publishing ---

// Publisher is a reliable keep-last writer on one topic.
class Publisher {
  constructor(node, topic, type, durability, depth) {
    const p = node._participant;
    this.p = p;
    const entityId = rtps.makeEntityId(p.nextEndpointId++, rtps.EntityKind.AppdefWriterNoKey);
    this.attributes = {
      guidPrefix: p.attributes.guidPrefix, entityId,
      topicName: "rt" + topic, typeName: type.replace("/msg/", "::msg::dds_::") + "_",
      durability, reliability: { kind: rtps.Reliability.Reliable, maxBlockingTime: INFINITE },
      history: { kind: rtps.HistoryKind.KeepLast, depth },
      protocolVersion: p.attributes.protocolVersion, vendorId: p.attributes.vendorId,
    };
    this.guid = rtps.makeGuid(this.attributes.guidPrefix, entityId);
    this.writer = new rtps.Writer(this.attributes);
    this.readers = new Map(); // guid -> {view, participant}
    p._writers.set(entityId, this.writer);
    Publisher.install(p, this);
    this.announce();
    p.on("discoveredSubscription", (a) => this.match(a));
    for (const pv of p._participants.values()) for (const rv of pv.remoteReaders.values()) this.match(rv.attributes);
    this.timer = setInterval(() => void this.heartbeat(false), 100);
  }

  // install routes ACKNACK and NACK_FRAG for our writers to their Publisher.
  static install(p, pub) {
    if (!p.navnodePublishers) {
      p.navnodePublishers = new Map();
      const sendChangesTo = p.sendChangesTo.bind(p);
      p.sendChangesTo = (reader, writer, locators) => {
        const own = p.navnodePublishers.get(writer.attributes.entityId);
        return own ? own.repair(reader) : sendChangesTo(reader, writer, locators);
      };
      p.handleNackFrag = (guidPrefix, nack) => {
        const own = p.navnodePublishers.get(nack.writerEntityId);
        if (own) void own.sendFragments(guidPrefix, nack.readerEntityId, nack.writerSeqNumber, [...nack.fragmentNumberState.fragmentNumbers()]);
      };
    }
    p.navnodePublishers.set(pub.attributes.entityId, pub);
  }

  // announce sends the publication to other participants (SEDP).
  announce() {
    const a = this.attributes;
    const params = new rtps.Parameters();
    params.topicName(a.topicName);
    params.typeName(a.typeName);
    params.durability(a.durability);
    params.reliability(a.reliability);
    params.history(a.history);
    params.protocolVersion(a.protocolVersion);
    params.vendorId(a.vendorId);
    params.endpointGuid(this.guid);
    params.finish();
    const pubs = this.p._writers.get(rtps.EntityIdBuiltin.PublicationsWriter);
    pubs.history.set({
      timestamp: now(), kind: rtps.ChangeKind.Alive,
      writerGuid: rtps.makeGuid(a.guidPrefix, rtps.EntityIdBuiltin.PublicationsWriter),
      sequenceNumber: pubs.history.nextSequenceNum(), data: params.data, instanceHandle: this.guid,
    });
    void this.p.sendMetatrafficChanges(pubs);
  }

  // match pairs this writer with a compatible remote reader of the topic.
  match(a) {
    const ours = this.attributes;
    if (a.topicName !== ours.topicName || a.typeName !== ours.typeName) return;
    if (a.durability > ours.durability) return; // a transient-local reader needs a transient-local writer
    const pv = this.p._participants.get(a.guidPrefix);
    const view = pv?.remoteReaders.get(a.entityId);
    const guid = rtps.makeGuid(a.guidPrefix, a.entityId);
    if (!view || this.readers.has(guid)) return;
    rtps.addToMultiMap(ours.entityId, a.entityId, pv.localWriterIdToRemoteReaderIds);
    this.readers.set(guid, { view, pv });
    void this.repair(view);
  }

  async publish(payload) {
    const seq = this.writer.history.nextSequenceNum();
    this.writer.history.set({ timestamp: now(), kind: rtps.ChangeKind.Alive, writerGuid: this.guid,
      sequenceNumber: seq, data: payload, instanceHandle: undefined });
    for (const { view } of this.readers.values()) await this.send(view, seq);
    await this.heartbeat(false);
    return seq;
  }

  acked(seq) {
    return this.readers.size > 0 && [...this.readers.values()].every(({ view }) => view.readerSNState.base > seq);
  }

  // repair sends what a reader's last ACKNACK says it misses.
  async repair(view) {
    const want = new Set(view.readerSNState.sequenceNumbers());
    const max = this.writer.history.getSequenceNumMax() ?? 0n;
    for (let s = view.readerSNState.maxSequenceNumber() + 1n; s <= max; s++) want.add(s);
    for (const s of want) await this.send(view, s);
    await this.heartbeat(true);
  }

  locators(view) {
    return this.p._participants.get(view.attributes.guidPrefix)?.attributes.defaultUnicastLocatorList ?? [];
  }

  // send sends sample seq to one reader, as DATA or as DATA_FRAGs.
  async send(view, seq) {
    const change = this.writer.history.get(seq);
    if (!change || change.data.length === 0) return;
    if (change.data.length <= 1000) {
      const g = new SubMessageGroup();
      g.writeSubmessage(new submsg.InfoDst(view.attributes.guidPrefix));
      g.writeSubmessage(new submsg.InfoTs(change.timestamp));
      g.writeSubmessage(new submsg.DataMsg(view.attributes.entityId, this.attributes.entityId, seq, change.data, submsg.DataFlags.DataPresent));
      await this.p.sendGroupToUdp(g, this.p._unicastSocket, this.locators(view));
      return;
    }
    const count = Math.ceil(change.data.length / FRAGMENT);
    await this.sendFragments(view.attributes.guidPrefix, view.attributes.entityId, seq, Array.from({ length: count }, (_, i) => i + 1));
  }

  async sendFragments(guidPrefix, readerEntityId, seq, numbers) {
    const change = this.writer.history.get(seq);
    const view = this.p._participants.get(guidPrefix)?.remoteReaders.get(readerEntityId);
    if (!change || !view) return;
    const total = change.data.length;
    for (const [k, n] of numbers.entries()) {
      const frag = change.data.subarray((n - 1) * FRAGMENT, Math.min(n * FRAGMENT, total));
      const g = new SubMessageGroup({ maxSize: FRAGMENT + 256 });
      g.writeSubmessage(new submsg.InfoDst(guidPrefix));
      g.writeSubmessage(new submsg.InfoTs(change.timestamp));
      g.writeSubmessage(new submsg.DataFrag(readerEntityId, this.attributes.entityId, seq, n, 1, FRAGMENT, total, [frag]));
      const msg = new rtps.Message({ ...this.p.attributes, maxSize: FRAGMENT + 512 });
      msg.writeGroup(g);
      await rtps.sendMessageToUdp(msg, this.p._unicastSocket, this.locators(view));
      if (k % 16 === 15) await sleep(1); // about 1 MB per millisecond: do not overrun the reader's socket
    }
  }

  // heartbeat tells every reader which samples exist; unless final, the
  // reader answers with an ACKNACK.
  async heartbeat(final) {
    const first = this.writer.history.getSequenceNumMin() ?? 1n;
    const last = this.writer.history.getSequenceNumMax() ?? 0n;
    for (const { view } of this.readers.values()) {
      const g = new SubMessageGroup();
      g.writeSubmessage(new submsg.InfoDst(view.attributes.guidPrefix));
      g.writeSubmessage(new submsg.Heartbeat(view.attributes.entityId, this.attributes.entityId, first, last,
        ++view.count, final ? submsg.HeartbeatFlags.Final : 0));
      await this.p.sendGroupToUdp(g, this.p._unicastSocket, this.locators(view));
    }
  }

  close() {
    clearInterval(this.timer);
  }
}

function now() {
  const ms = Date.now();
  return { sec: Math.floor(ms / 1000), nsec: (ms % 1000) * 1e6 };
}

// publish waits for a matched reader, publishes msg and waits for its
// acknowledgement.
async function publish(node, topic, type, msg) {
  const { writer } = codec(type);
  const pub = new Publisher(node, topic, type, rtps.Durability.Volatile, 10);
  try {
    const end = Date.now() + 10000;
    while (pub.readers.size === 0 && Date.now() < end) await sleep(10);
    if (pub.readers.size === 0) return fail(`no subscription to ${topic} matched within 10 s`);
    if (!(await ready(true))) return;
    // Publish every second until the test closes our stdin (it does once
    // navnode has checked a copy) or 30 s pass: a volatile reader that
    // matched us just before a write can legitimately miss it.
    const payload = writer.writeMessage(msg);
    let closed = false;
    stdinLines.next().then(() => (closed = true));
    const stop = Date.now() + 30000;
    while (!closed && Date.now() < stop) {
      const seq = await pub.publish(payload);
      const next = Date.now() + 1000;
      while (!closed && Date.now() < next) await sleep(10);
      if (!closed && !pub.acked(seq)) console.log(`sample ${seq} not yet acknowledged`);
    }
    if (!closed) fail("the test never said it got the sample");
  } finally {
    pub.close();
  }
}

async function main() {
  const mode = process.argv[2];
  const node = new RosNode({ name: "foxglove_peer", domainId: DOMAIN, addresses: ["127.0.0.1"],
    udpSocketCreate: UdpSocketNode.Create });
  await node.start();
  const deadline = (p, s, what) => Promise.race([p, sleep(s * 1000).then(() => { throw new Error(`${what}: nothing within ${s} s`); })]);
  let ok;
  switch (mode) {
    case "goal":
      await publish(node, "/goal_pose", "geometry_msgs/msg/PoseStamped", goalMessage());
      ok = "goal sent";
      break;
    case "cloudsend":
      await publish(node, "/cloud_in", "sensor_msgs/msg/PointCloud2", cloudMessage());
      ok = `cloud of ${CLOUD_BYTES} bytes sent`;
      break;
    case "plan":
      ok = checkPlan(await deadline(receive(node, "/plan", "nav_msgs/msg/Path", rtps.Durability.Volatile), 30, "/plan"));
      break;
    case "latemap":
      ok = checkMap(await deadline(receive(node, "/map", "nav_msgs/msg/OccupancyGrid", rtps.Durability.TransientLocal), 30, "/map"));
      break;
    case "cloudrecv":
      ok = checkCloud(await deadline(receive(node, "/cloud_out", "sensor_msgs/msg/PointCloud2", rtps.Durability.Volatile), 30, "/cloud_out"));
      break;
    default:
      console.error(`unknown mode ${mode}`);
      process.exit(2);
  }
  if (failures === 0) console.log(`OK ${ok}`);
  await node.shutdown();
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.log(`FAIL ${err.stack ?? err}`);
  process.exit(1);
});
