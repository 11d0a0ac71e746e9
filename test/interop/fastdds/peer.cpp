// A Fast DDS 2.9 C++ program (Debian libfastrtps-dev) that plays the other
// ROS 2 node in navnode's interop tests, the way a ROS 2 Humble node with the
// default middleware (rmw_fastrtps) would: types from fastddsgen under the
// names ROS 2 uses, no XTypes type information, loopback UDP only.
//
// usage: fastdds-peer MODE [ARGS]; domain from ROS_DOMAIN_ID. Modes as the
// CycloneDDS peer: goal, plan, latemap, cloudsend, cloudrecv,
// discovery NS NAME, relay TYPE (without its FIELDS line). Prints "OK ..." and exits 0, or "FAIL ..." and 1.
#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>
#include <fastdds/rtps/flowcontrol/FlowControllerDescriptor.hpp>
#include <fastdds/rtps/transport/UDPv4TransportDescriptor.h>
#include <fastrtps/utils/IPLocator.h>

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>

extern "C" {
#include "expect.h"
}
#include "ros.h"
#include "rosPubSubTypes.h"

using namespace eprosima::fastdds::dds;
using eprosima::fastrtps::Duration_t;
using eprosima::fastrtps::rtps::IPLocator;
using eprosima::fastrtps::rtps::Locator_t;
namespace gm = geometry_msgs::msg::dds_;
namespace nm = nav_msgs::msg::dds_;
namespace sm = sensor_msgs::msg::dds_;
namespace rm = rmw_dds_common::msg::dds_;

static DomainParticipant* pp;
static int failures;

static void fail(const std::string& what) {
  std::printf("FAIL %s\n", what.c_str());
  failures++;
}

template <typename A, typename B>
static void check_eq(const std::string& what, A got, B want) {
  if (!(got == want)) {
    std::ostringstream s;
    s.precision(17);
    s << what << " = " << got << ", want " << want;
    fail(s.str());
  }
}

// Loopback only: UDPv4 on 127.0.0.1, unicast discovery, no shared memory.
static DomainParticipant* create_participant(int domain) {
  auto* f = DomainParticipantFactory::get_instance();
  DomainParticipantQos q = f->get_default_participant_qos();
  q.name("fastdds_peer");
  q.transport().use_builtin_transports = false;
  auto udp = std::make_shared<eprosima::fastdds::rtps::UDPv4TransportDescriptor>();
  udp->interfaceWhiteList.push_back("127.0.0.1");
  udp->maxInitialPeersRange = 32;
  udp->sendBufferSize = udp->receiveBufferSize = 4 << 20;  // capped by net.core.rmem_max
  q.transport().user_transports.push_back(udp);
  Locator_t lo;
  IPLocator::setIPv4(lo, 127, 0, 0, 1);
  q.wire_protocol().builtin.metatrafficUnicastLocatorList.push_back(lo);
  q.wire_protocol().default_unicast_locator_list.push_back(lo);
  q.wire_protocol().builtin.initialPeersList.push_back(lo);
  // Large samples go out paced, from Fast DDS's own thread: a synchronous
  // burst into a full socket can make Fast DDS give up a sample (it sends a
  // GAP for it) when the machine is loaded.
  auto fc = std::make_shared<eprosima::fastdds::rtps::FlowControllerDescriptor>();
  fc->name = "paced";
  fc->max_bytes_per_period = 1 << 20;
  fc->period_ms = 5;
  q.flow_controllers().push_back(fc);
  return f->create_participant(domain, q);
}

template <typename PubSubType>
static Topic* topic(const char* name) {
  TypeSupport ts(new PubSubType());
  ts->auto_fill_type_object(false);  // as rmw_fastrtps: no type information
  ts->auto_fill_type_information(false);
  ts.register_type(pp);
  return pp->create_topic(name, ts.get_type_name(), TOPIC_QOS_DEFAULT);
}

static DataWriter* writer(Topic* t, bool transient_local, int depth) {
  DataWriterQos q = DATAWRITER_QOS_DEFAULT;
  q.reliability().kind = RELIABLE_RELIABILITY_QOS;
  q.reliability().max_blocking_time = Duration_t(5, 0);
  q.durability().kind = transient_local ? TRANSIENT_LOCAL_DURABILITY_QOS : VOLATILE_DURABILITY_QOS;
  q.history().kind = KEEP_LAST_HISTORY_QOS;
  q.history().depth = depth;
  q.endpoint().history_memory_policy = eprosima::fastrtps::rtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
  q.reliable_writer_qos().times.heartbeatPeriod = Duration_t(0, 100000000);  // repair lost fragments quickly
  q.publish_mode().kind = ASYNCHRONOUS_PUBLISH_MODE;
  q.publish_mode().flow_controller_name = "paced";
  return pp->create_publisher(PUBLISHER_QOS_DEFAULT)->create_datawriter(t, q);
}

static DataReader* reader(Topic* t, bool transient_local, bool keep_all) {
  DataReaderQos q = DATAREADER_QOS_DEFAULT;
  q.reliability().kind = RELIABLE_RELIABILITY_QOS;
  q.durability().kind = transient_local ? TRANSIENT_LOCAL_DURABILITY_QOS : VOLATILE_DURABILITY_QOS;
  q.history().kind = keep_all ? KEEP_ALL_HISTORY_QOS : KEEP_LAST_HISTORY_QOS;
  q.history().depth = 10;
  q.endpoint().history_memory_policy = eprosima::fastrtps::rtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
  return pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT)->create_datareader(t, q);
}

static bool wait_matched(DataWriter* w) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  PublicationMatchedStatus st;
  while (std::chrono::steady_clock::now() < end) {
    w->get_publication_matched_status(st);
    if (st.current_count > 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  fail("no subscription matched within 10 s");
  return false;
}

// ready announces that our endpoint has matched navnode's and, for a
// writer, waits for "go" on stdin: the test sends it once navnode's side has
// matched too, so a volatile reader cannot miss the sample.
static bool ready(bool is_writer) {
  std::printf("READY\n");
  std::fflush(stdout);
  if (!is_writer) return true;
  char line[16];
  if (std::fgets(line, sizeof line, stdin) == nullptr || std::strncmp(line, "go", 2) != 0) {
    fail("no go from the test");
    return false;
  }
  return true;
}

static bool wait_reader_matched(DataReader* r) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  SubscriptionMatchedStatus st;
  while (std::chrono::steady_clock::now() < end) {
    r->get_subscription_matched_status(st);
    if (st.current_count > 0) return ready(false);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  fail("no publisher matched within 10 s");
  return false;
}

// repeat writes sample every second until the test closes our stdin (it
// does once navnode has checked a copy) or 30 s pass: a volatile reader
// that matched us just before a write can legitimately miss it.
template <typename T>
static void repeat(DataWriter* w, T* sample) {
  pollfd p{0, POLLIN, 0};
  char buf[64];
  auto now = [] { return std::chrono::steady_clock::now(); };
  auto end = now() + std::chrono::seconds(30), next = now();
  while (now() < end) {
    if (now() >= next) {
      if (!w->write(sample)) fail("write failed");
      next = now() + std::chrono::seconds(1);
    }
    if (poll(&p, 1, 50) > 0 && read(0, buf, sizeof buf) <= 0) return;
  }
  fail("the test never said it got the sample");
}

template <typename T>
static bool take_one(DataReader* r, T* m, int seconds = 30) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  SampleInfo info;
  while (std::chrono::steady_clock::now() < end) {
    r->wait_for_unread_message(Duration_t(0, 100000000));
    while (r->take_next_sample(m, &info) == ReturnCode_t::RETCODE_OK)
      if (info.valid_data) return true;
  }
  fail("nothing received within " + std::to_string(seconds) + " s");
  return false;
}

static void check_header(const std::string& what, const std_msgs::msg::dds_::Header_& h, int32_t sec,
                         uint32_t ns, const char* frame) {
  check_eq(what + ".stamp.sec", h.stamp().sec(), sec);
  check_eq(what + ".stamp.nanosec", h.stamp().nanosec(), ns);
  check_eq(what + ".frame_id", h.frame_id(), std::string(frame));
}

static int goal() {
  DataWriter* w = writer(topic<gm::PoseStamped_PubSubType>("rt/goal_pose"), false, 10);
  gm::PoseStamped_ m;
  m.header().stamp().sec(GOAL_SEC);
  m.header().stamp().nanosec(GOAL_NANOSEC);
  m.header().frame_id(GOAL_FRAME);
  m.pose().position().x(GOAL_X);
  m.pose().position().y(GOAL_Y);
  m.pose().position().z(GOAL_Z);
  m.pose().orientation().z(GOAL_QZ);
  m.pose().orientation().w(GOAL_QW);
  if (!wait_matched(w) || !ready(true)) return 1;
  repeat(w, &m);
  if (!failures) std::printf("OK goal sent\n");
  return failures != 0;
}

static int plan() {
  DataReader* r = reader(topic<nm::Path_PubSubType>("rt/plan"), false, false);
  nm::Path_ m;
  if (!wait_reader_matched(r) || !take_one(r, &m)) return 1;
  check_header("header", m.header(), PLAN_SEC, PLAN_NANOSEC, PLAN_FRAME);
  check_eq("len(poses)", m.poses().size(), size_t(PLAN_POSES));
  for (uint32_t i = 0; i < m.poses().size(); i++) {
    const auto& p = m.poses()[i];
    std::string at = "poses[" + std::to_string(i) + "]";
    check_header(at + ".header", p.header(), PLAN_SEC, i, PLAN_FRAME);
    check_eq(at + ".position.x", p.pose().position().x(), 0.5 * i);
    check_eq(at + ".position.y", p.pose().position().y(), -1.0 * i);
    check_eq(at + ".position.z", p.pose().position().z(), 0.25 * i);
    check_eq(at + ".orientation.x", p.pose().orientation().x(), 0.0);
    check_eq(at + ".orientation.y", p.pose().orientation().y(), 0.0);
    check_eq(at + ".orientation.z", p.pose().orientation().z(), 0.0);
    check_eq(at + ".orientation.w", p.pose().orientation().w(), 1.0);
  }
  if (!failures) std::printf("OK plan of %zu poses matches\n", m.poses().size());
  return failures != 0;
}

static int latemap() {
  DataReader* r = reader(topic<nm::OccupancyGrid_PubSubType>("rt/map"), true, false);
  nm::OccupancyGrid_ m;
  if (!take_one(r, &m)) return 1;
  check_header("header", m.header(), MAP_SEC, MAP_NANOSEC, MAP_FRAME);
  check_eq("info.map_load_time.sec", m.info().map_load_time().sec(), MAP_LOAD_SEC);
  check_eq("info.map_load_time.nanosec", m.info().map_load_time().nanosec(), MAP_LOAD_NANOSEC);
  check_eq("info.resolution", m.info().resolution(), MAP_RESOLUTION);
  check_eq("info.width", m.info().width(), MAP_WIDTH);
  check_eq("info.height", m.info().height(), MAP_HEIGHT);
  const auto& origin = m.info().origin();
  check_eq("info.origin.position.x", origin.position().x(), MAP_ORIGIN_X);
  check_eq("info.origin.position.y", origin.position().y(), MAP_ORIGIN_Y);
  check_eq("info.origin.position.z", origin.position().z(), MAP_ORIGIN_Z);
  check_eq("info.origin.orientation.x", origin.orientation().x(), MAP_ORIGIN_QX);
  check_eq("info.origin.orientation.y", origin.orientation().y(), MAP_ORIGIN_QY);
  check_eq("info.origin.orientation.z", origin.orientation().z(), MAP_ORIGIN_QZ);
  check_eq("info.origin.orientation.w", origin.orientation().w(), MAP_ORIGIN_QW);
  check_eq("len(data)", m.data().size(), size_t(MAP_WIDTH * MAP_HEIGHT));
  for (uint32_t i = 0; i < m.data().size() && !failures; i++)
    if (m.data()[i] != map_cell(i)) fail("data[" + std::to_string(i) + "] differs");
  if (!failures) std::printf("OK late-joining map of %zu cells matches\n", m.data().size());
  return failures != 0;
}

static void fill_cloud(sm::PointCloud2_& m) {
  m.header().stamp().sec(CLOUD_SEC);
  m.header().stamp().nanosec(CLOUD_NANOSEC);
  m.header().frame_id(CLOUD_FRAME);
  m.height(1);
  m.width(CLOUD_BYTES / CLOUD_POINT_STEP);
  const char* names[] = {"x", "y", "z", "intensity"};
  for (uint32_t i = 0; i < 4; i++) {
    sm::PointField_ f;
    f.name(names[i]);
    f.offset(4 * i);
    f.datatype(7);
    f.count(1);
    m.fields().push_back(f);
  }
  m.point_step(CLOUD_POINT_STEP);
  m.row_step(CLOUD_BYTES);
  m.data().resize(CLOUD_BYTES);
  for (uint32_t i = 0; i < CLOUD_BYTES; i++) m.data()[i] = cloud_byte(i);
  m.is_dense(true);
}

static int cloudsend() {
  DataWriter* w = writer(topic<sm::PointCloud2_PubSubType>("rt/cloud_in"), false, 10);
  sm::PointCloud2_ m;
  fill_cloud(m);
  if (!wait_matched(w) || !ready(true)) return 1;
  repeat(w, &m);
  if (!failures) std::printf("OK cloud of %u bytes sent\n", CLOUD_BYTES);
  return failures != 0;
}

static int cloudrecv() {
  DataReader* r = reader(topic<sm::PointCloud2_PubSubType>("rt/cloud_out"), false, false);
  sm::PointCloud2_ m;
  if (!wait_reader_matched(r) || !take_one(r, &m)) return 1;
  check_header("header", m.header(), CLOUD_SEC, CLOUD_NANOSEC, CLOUD_FRAME);
  check_eq("height", m.height(), 1u);
  check_eq("width", m.width(), CLOUD_BYTES / CLOUD_POINT_STEP);
  check_eq("len(fields)", m.fields().size(), size_t(4));
  const char* names[] = {"x", "y", "z", "intensity"};
  for (size_t i = 0; i < m.fields().size() && i < 4; i++) {
    const auto& f = m.fields()[i];
    std::string at = "fields[" + std::to_string(i) + "]";
    check_eq(at + ".name", f.name(), std::string(names[i]));
    check_eq(at + ".offset", f.offset(), uint32_t(4 * i));
    check_eq(at + ".datatype", unsigned(f.datatype()), 7u);
    check_eq(at + ".count", f.count(), 1u);
  }
  check_eq("is_bigendian", m.is_bigendian(), false);
  check_eq("point_step", m.point_step(), CLOUD_POINT_STEP);
  check_eq("row_step", m.row_step(), CLOUD_BYTES);
  check_eq("is_dense", m.is_dense(), true);
  check_eq("len(data)", m.data().size(), size_t(CLOUD_BYTES));
  for (uint32_t i = 0; i < m.data().size() && !failures; i++)
    if (m.data()[i] != cloud_byte(i)) fail("first corrupted byte at " + std::to_string(i));
  if (!failures) std::printf("OK cloud of %zu bytes matches\n", m.data().size());
  return failures != 0;
}

static std::string hex(const std::array<uint8_t, 16>& g) {
  char buf[33];
  for (int i = 0; i < 16; i++) std::snprintf(buf + 2 * i, 3, "%02x", g[i]);
  return std::string(buf, 32);
}

static std::string gids(const std::vector<rm::Gid_>& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) out += (i ? "," : "") + hex(s[i].data());
  return out;
}

static int discovery(const char* ns, const char* name) {
  DataReader* r = reader(topic<rm::ParticipantEntitiesInfo_PubSubType>("ros_discovery_info"), true, true);
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < end) {
    rm::ParticipantEntitiesInfo_ m;
    if (!take_one(r, &m, 10)) return 1;
    for (const auto& n : m.node_entities_info_seq()) {
      if (n.node_namespace().to_string() != ns || n.node_name().to_string() != name) continue;
      std::printf("OK node %s %s participant=%s readers=%s writers=%s\n", ns, name, hex(m.gid().data()).c_str(),
                  gids(n.reader_gid_seq()).c_str(), gids(n.writer_gid_seq()).c_str());
      return 0;
    }
  }
  fail("node not found in ros_discovery_info within 10 s");
  return 1;
}

// relay_as republishes each /relay_in sample on /relay_out, decoded into
// fastddsgen's class and encoded again from it, until the test closes our
// stdin.
template <typename PubSubType>
static int relay_as(const std::string& kind) {
  DataReader* r = reader(topic<PubSubType>("rt/relay_in"), false, false);
  DataWriter* w = writer(topic<PubSubType>("rt/relay_out"), false, 10);
  ready(false);
  pollfd p{0, POLLIN, 0};
  char buf[64];
  int relayed = 0;
  typename PubSubType::type m;
  SampleInfo info;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < end) {
    r->wait_for_unread_message(Duration_t(0, 50000000));
    while (r->take_next_sample(&m, &info) == ReturnCode_t::RETCODE_OK)
      if (info.valid_data && w->write(&m)) relayed++;
    if (poll(&p, 1, 0) > 0 && read(0, buf, sizeof buf) <= 0) {
      if (relayed == 0) fail("nothing to relay");
      else std::printf("OK relayed %d %s samples\n", relayed, kind.c_str());
      return failures != 0;
    }
  }
  fail("the test never closed stdin");
  return 1;
}

static int relay(const std::string& kind) {
  if (kind == "scan") return relay_as<sm::LaserScan_PubSubType>(kind);
  if (kind == "odom") return relay_as<nm::Odometry_PubSubType>(kind);
  if (kind == "tf") return relay_as<tf2_msgs::msg::dds_::TFMessage_PubSubType>(kind);
  if (kind == "markers") return relay_as<visualization_msgs::msg::dds_::MarkerArray_PubSubType>(kind);
  if (kind == "diag") return relay_as<diagnostic_msgs::msg::dds_::DiagnosticArray_PubSubType>(kind);
  if (kind == "log") return relay_as<rcl_interfaces::msg::dds_::Log_PubSubType>(kind);
  std::fprintf(stderr, "relay: unknown type %s\n", kind.c_str());
  return 2;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fastdds-peer MODE [ARGS]\n");
    return 2;
  }
  const char* d = std::getenv("ROS_DOMAIN_ID");
  pp = create_participant(d ? std::atoi(d) : 0);
  if (pp == nullptr) {
    std::fprintf(stderr, "cannot create participant\n");
    return 2;
  }
  std::string mode = argv[1];
  int rc = 2;
  if (mode == "goal") rc = goal();
  else if (mode == "plan") rc = plan();
  else if (mode == "latemap") rc = latemap();
  else if (mode == "cloudsend") rc = cloudsend();
  else if (mode == "cloudrecv") rc = cloudrecv();
  else if (mode == "discovery" && argc == 4) rc = discovery(argv[2], argv[3]);
  else if (mode == "relay" && argc == 3) rc = relay(argv[2]);
  else std::fprintf(stderr, "unknown mode %s\n", argv[1]);
  std::fflush(stdout);
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return rc;
}
