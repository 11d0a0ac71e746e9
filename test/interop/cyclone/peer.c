/* A plain CycloneDDS C program that plays the other ROS 2 node in navnode's
 * interop tests, with types idlc generates from ../idl/ros.idl under the
 * names ROS 2 uses. It shares no code with navnode.
 *
 * usage: cyclone-peer MODE [ARGS]; domain from ROS_DOMAIN_ID, configuration
 * from CYCLONEDDS_URI. Prints "OK ..." and exits 0, or "FAIL ..." and 1.
 *   goal               publish the expected PoseStamped on /goal_pose
 *   plan               receive /plan and check every field
 *   latemap            receive the transient-local /map and check it
 *   cloudsend          publish the 8 MiB PointCloud2 on /cloud_in
 *   cloudrecv          receive /cloud_out and check every byte
 *   discovery NS NAME  find node NS/NAME in ros_discovery_info, print its GIDs
 *   relay TYPE         republish each /relay_in sample on /relay_out, decoded
 *                      and encoded again by idlc's code, until stdin closes;
 *                      TYPE: scan, odom, tf, markers, diag or log
 *   echo pose|cloud    benchmark: republish /bench_ping on /bench_pong
 *   ping pose|cloud N  benchmark: N round trips through an echo, print latency
 *   sink SECONDS       benchmark: count /bench_tput PointCloud2s received
 *   source BYTES SECONDS  benchmark: publish PointCloud2s on /bench_tput */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <unistd.h>

#include "dds/dds.h"
#include "expect.h"
#include "ros.h"

#define DISCOVERY_TIMEOUT DDS_SECS(10)
#define DATA_TIMEOUT DDS_SECS(30)

static dds_entity_t pp;
static int failures;

static void fail(const char *what) {
  printf("FAIL %s\n", what);
  failures++;
}

static void check_eq_d(const char *what, double got, double want) {
  if (got != want) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s = %.17g, want %.17g", what, got, want);
    fail(buf);
  }
}

static void check_eq_u(const char *what, unsigned long long got, unsigned long long want) {
  if (got != want) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s = %llu, want %llu", what, got, want);
    fail(buf);
  }
}

static void check_str(const char *what, const char *got, const char *want) {
  if (got == NULL || strcmp(got, want) != 0) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s = \"%s\", want \"%s\"", what, got ? got : "(null)", want);
    fail(buf);
  }
}

static dds_qos_t *qos(int transient_local, int depth) {
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_INFINITY);
  dds_qset_history(q, depth > 0 ? DDS_HISTORY_KEEP_LAST : DDS_HISTORY_KEEP_ALL, depth > 0 ? depth : DDS_LENGTH_UNLIMITED);
  if (transient_local) {
    dds_qset_durability(q, DDS_DURABILITY_TRANSIENT_LOCAL);
    dds_qset_durability_service(q, 0, DDS_HISTORY_KEEP_LAST, depth > 0 ? depth : 1, DDS_LENGTH_UNLIMITED,
                                DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED);
  }
  return q;
}

static dds_entity_t endpoint(int is_writer, const dds_topic_descriptor_t *desc, const char *topic, dds_qos_t *q) {
  dds_entity_t tp = dds_create_topic(pp, desc, topic, NULL, NULL);
  if (tp < 0) {
    fprintf(stderr, "topic %s: %s\n", topic, dds_strretcode(tp));
    exit(2);
  }
  dds_entity_t e = is_writer ? dds_create_writer(pp, tp, q, NULL) : dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (e < 0) {
    fprintf(stderr, "endpoint on %s: %s\n", topic, dds_strretcode(e));
    exit(2);
  }
  return e;
}

static int wait_matched(dds_entity_t wr) {
  dds_time_t end = dds_time() + DISCOVERY_TIMEOUT;
  dds_publication_matched_status_t st;
  while (dds_time() < end) {
    dds_get_publication_matched_status(wr, &st);
    if (st.current_count > 0) return 1;
    dds_sleepfor(DDS_MSECS(5));
  }
  fail("no subscription matched within 10 s");
  return 0;
}

/* ready announces that our endpoint has matched navnode's and, for a
 * writer, waits for "go" on stdin: the test sends it once navnode's side has
 * matched too, so a volatile reader cannot miss the sample. */
static int ready(int is_writer) {
  printf("READY\n");
  fflush(stdout);
  if (!is_writer) return 1;
  char line[16];
  if (fgets(line, sizeof line, stdin) == NULL || strncmp(line, "go", 2) != 0) {
    fail("no go from the test");
    return 0;
  }
  return 1;
}

static int wait_reader_matched(dds_entity_t rd) {
  dds_time_t end = dds_time() + DISCOVERY_TIMEOUT;
  dds_subscription_matched_status_t st;
  while (dds_time() < end) {
    dds_get_subscription_matched_status(rd, &st);
    if (st.current_count > 0) return ready(0);
    dds_sleepfor(DDS_MSECS(5));
  }
  fail("no publisher matched within 10 s");
  return 0;
}

/* repeat writes sample every second until the test closes our stdin (it
 * does once navnode has checked a copy) or 30 s pass: a volatile reader
 * that matched us just before a write can legitimately miss it, as it can
 * miss a sensor's first message. */
static void repeat(dds_entity_t wr, const void *sample) {
  struct pollfd p = {0, POLLIN, 0};
  char buf[64];
  dds_time_t end = dds_time() + DDS_SECS(30), next = 0;
  while (dds_time() < end) {
    if (dds_time() >= next) {
      dds_write(wr, sample);
      next = dds_time() + DDS_SECS(1);
    }
    if (poll(&p, 1, 50) > 0 && read(0, buf, sizeof buf) <= 0) return;
  }
  fail("the test never said it got the sample");
}

/* take_one waits up to DATA_TIMEOUT for one valid sample from rd. */
static int take_one(dds_entity_t rd, void *sample) {
  dds_entity_t ws = dds_create_waitset(pp);
  dds_entity_t rc = dds_create_readcondition(rd, DDS_ANY_STATE);
  dds_waitset_attach(ws, rc, 0);
  dds_time_t end = dds_time() + DATA_TIMEOUT;
  void *samples[1] = {sample};
  dds_sample_info_t si;
  int got = 0;
  while (!got && dds_time() < end) {
    dds_waitset_wait_until(ws, NULL, 0, end);
    while (!got && dds_take(rd, samples, &si, 1, 1) > 0) got = si.valid_data;
  }
  dds_delete(ws);
  dds_delete(rc);
  if (!got) fail("nothing received within 30 s");
  return got;
}

static void fill_goal(geometry_msgs_msg_dds__PoseStamped_ *m) {
  memset(m, 0, sizeof *m);
  m->header.stamp.sec = GOAL_SEC;
  m->header.stamp.nanosec = GOAL_NANOSEC;
  m->header.frame_id = GOAL_FRAME;
  m->pose.position.x = GOAL_X;
  m->pose.position.y = GOAL_Y;
  m->pose.position.z = GOAL_Z;
  m->pose.orientation.z = GOAL_QZ;
  m->pose.orientation.w = GOAL_QW;
}

static int goal(void) {
  dds_entity_t wr = endpoint(1, &geometry_msgs_msg_dds__PoseStamped__desc, "rt/goal_pose", qos(0, 10));
  if (!wait_matched(wr)) return 1;
  if (!ready(1)) return 1;
  geometry_msgs_msg_dds__PoseStamped_ m;
  fill_goal(&m);
  repeat(wr, &m);
  if (!failures) printf("OK goal sent\n");
  return failures != 0;
}

static void check_header(const char *what, const std_msgs_msg_dds__Header_ *h, int32_t sec, uint32_t ns,
                         const char *frame) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s.stamp.sec", what);
  check_eq_u(buf, (unsigned long long)(int64_t)h->stamp.sec, (unsigned long long)(int64_t)sec);
  snprintf(buf, sizeof buf, "%s.stamp.nanosec", what);
  check_eq_u(buf, h->stamp.nanosec, ns);
  snprintf(buf, sizeof buf, "%s.frame_id", what);
  check_str(buf, h->frame_id, frame);
}

static int plan(void) {
  dds_entity_t rd = endpoint(0, &nav_msgs_msg_dds__Path__desc, "rt/plan", qos(0, 10));
  nav_msgs_msg_dds__Path_ m;
  memset(&m, 0, sizeof m);
  if (!wait_reader_matched(rd) || !take_one(rd, &m)) return 1;
  check_header("header", &m.header, PLAN_SEC, PLAN_NANOSEC, PLAN_FRAME);
  check_eq_u("len(poses)", m.poses._length, PLAN_POSES);
  for (uint32_t i = 0; i < m.poses._length && i < PLAN_POSES; i++) {
    const geometry_msgs_msg_dds__PoseStamped_ *p = &m.poses._buffer[i];
    char what[64];
    snprintf(what, sizeof what, "poses[%u].header", i);
    check_header(what, &p->header, PLAN_SEC, i, PLAN_FRAME);
    check_eq_d("position.x", p->pose.position.x, 0.5 * i);
    check_eq_d("position.y", p->pose.position.y, -1.0 * i);
    check_eq_d("position.z", p->pose.position.z, 0.25 * i);
    check_eq_d("orientation.x", p->pose.orientation.x, 0);
    check_eq_d("orientation.y", p->pose.orientation.y, 0);
    check_eq_d("orientation.z", p->pose.orientation.z, 0);
    check_eq_d("orientation.w", p->pose.orientation.w, 1);
  }
  if (!failures) printf("OK plan of %u poses matches\n", m.poses._length);
  nav_msgs_msg_dds__Path__free(&m, DDS_FREE_CONTENTS);
  return failures != 0;
}

static int latemap(void) {
  dds_entity_t rd = endpoint(0, &nav_msgs_msg_dds__OccupancyGrid__desc, "rt/map", qos(1, 1));
  nav_msgs_msg_dds__OccupancyGrid_ m;
  memset(&m, 0, sizeof m);
  if (!take_one(rd, &m)) return 1;
  check_header("header", &m.header, MAP_SEC, MAP_NANOSEC, MAP_FRAME);
  check_eq_u("info.map_load_time.sec", (unsigned)m.info.map_load_time.sec, MAP_LOAD_SEC);
  check_eq_u("info.map_load_time.nanosec", m.info.map_load_time.nanosec, MAP_LOAD_NANOSEC);
  check_eq_d("info.resolution", m.info.resolution, MAP_RESOLUTION);
  check_eq_u("info.width", m.info.width, MAP_WIDTH);
  check_eq_u("info.height", m.info.height, MAP_HEIGHT);
  check_eq_d("info.origin.position.x", m.info.origin.position.x, MAP_ORIGIN_X);
  check_eq_d("info.origin.position.y", m.info.origin.position.y, MAP_ORIGIN_Y);
  check_eq_d("info.origin.position.z", m.info.origin.position.z, MAP_ORIGIN_Z);
  check_eq_d("info.origin.orientation.x", m.info.origin.orientation.x, MAP_ORIGIN_QX);
  check_eq_d("info.origin.orientation.y", m.info.origin.orientation.y, MAP_ORIGIN_QY);
  check_eq_d("info.origin.orientation.z", m.info.origin.orientation.z, MAP_ORIGIN_QZ);
  check_eq_d("info.origin.orientation.w", m.info.origin.orientation.w, MAP_ORIGIN_QW);
  check_eq_u("len(data)", m.data._length, MAP_WIDTH * MAP_HEIGHT);
  for (uint32_t i = 0; i < m.data._length && !failures; i++)
    if (m.data._buffer[i] != map_cell(i)) check_eq_u("data[i]", (unsigned)i, (unsigned)-1);
  if (!failures) printf("OK late-joining map of %u cells matches\n", m.data._length);
  nav_msgs_msg_dds__OccupancyGrid__free(&m, DDS_FREE_CONTENTS);
  return failures != 0;
}

static sensor_msgs_msg_dds__PointField_ cloud_fields[4] = {
    {"x", 0, 7, 1}, {"y", 4, 7, 1}, {"z", 8, 7, 1}, {"intensity", 12, 7, 1}};

static void fill_cloud(sensor_msgs_msg_dds__PointCloud2_ *m, uint32_t bytes, int pattern) {
  memset(m, 0, sizeof *m);
  m->header.stamp.sec = CLOUD_SEC;
  m->header.stamp.nanosec = CLOUD_NANOSEC;
  m->header.frame_id = CLOUD_FRAME;
  m->height = 1;
  m->width = bytes / CLOUD_POINT_STEP;
  m->fields._length = m->fields._maximum = 4;
  m->fields._buffer = cloud_fields;
  m->point_step = CLOUD_POINT_STEP;
  m->row_step = m->width * CLOUD_POINT_STEP;
  m->data._length = m->data._maximum = bytes;
  m->data._buffer = malloc(bytes);
  for (uint32_t i = 0; i < bytes; i++) m->data._buffer[i] = pattern ? cloud_byte(i) : 0;
  m->is_dense = true;
}

static int cloudsend(void) {
  dds_entity_t wr = endpoint(1, &sensor_msgs_msg_dds__PointCloud2__desc, "rt/cloud_in", qos(0, 10));
  sensor_msgs_msg_dds__PointCloud2_ m;
  fill_cloud(&m, CLOUD_BYTES, 1);
  if (!wait_matched(wr) || !ready(1)) return 1;
  repeat(wr, &m);
  free(m.data._buffer);
  if (!failures) printf("OK cloud of %u bytes sent\n", CLOUD_BYTES);
  return failures != 0;
}

static int cloudrecv(void) {
  dds_entity_t rd = endpoint(0, &sensor_msgs_msg_dds__PointCloud2__desc, "rt/cloud_out", qos(0, 10));
  sensor_msgs_msg_dds__PointCloud2_ m;
  memset(&m, 0, sizeof m);
  if (!wait_reader_matched(rd) || !take_one(rd, &m)) return 1;
  check_header("header", &m.header, CLOUD_SEC, CLOUD_NANOSEC, CLOUD_FRAME);
  check_eq_u("height", m.height, 1);
  check_eq_u("width", m.width, CLOUD_BYTES / CLOUD_POINT_STEP);
  check_eq_u("len(fields)", m.fields._length, 4);
  for (uint32_t i = 0; i < m.fields._length && i < 4; i++) {
    check_str("fields[i].name", m.fields._buffer[i].name, cloud_fields[i].name);
    check_eq_u("fields[i].offset", m.fields._buffer[i].offset, cloud_fields[i].offset);
    check_eq_u("fields[i].datatype", m.fields._buffer[i].datatype, 7);
    check_eq_u("fields[i].count", m.fields._buffer[i].count, 1);
  }
  check_eq_u("is_bigendian", m.is_bigendian, 0);
  check_eq_u("point_step", m.point_step, CLOUD_POINT_STEP);
  check_eq_u("row_step", m.row_step, CLOUD_BYTES);
  check_eq_u("is_dense", m.is_dense, 1);
  check_eq_u("len(data)", m.data._length, CLOUD_BYTES);
  for (uint32_t i = 0; i < m.data._length && !failures; i++)
    if (m.data._buffer[i] != cloud_byte(i)) check_eq_u("first corrupted byte at", i, (unsigned)-1);
  if (!failures) printf("OK cloud of %u bytes matches\n", m.data._length);
  sensor_msgs_msg_dds__PointCloud2__free(&m, DDS_FREE_CONTENTS);
  return failures != 0;
}

static void print_gids(const char *what, const dds_sequence_rmw_dds_common_msg_dds__Gid_ *s) {
  printf(" %s=", what);
  for (uint32_t i = 0; i < s->_length; i++) {
    for (int b = 0; b < 16; b++) printf("%02x", s->_buffer[i].data[b]);
    if (i + 1 < s->_length) printf(",");
  }
}

/* print_userdata prints the USER_DATA of every participant and of every
 * "rt/" writer and reader discovery knows, from the builtin topics. */
static void print_userdata(void) {
  dds_entity_t topics[] = {DDS_BUILTIN_TOPIC_DCPSPARTICIPANT, DDS_BUILTIN_TOPIC_DCPSPUBLICATION,
                           DDS_BUILTIN_TOPIC_DCPSSUBSCRIPTION};
  for (int t = 0; t < 3; t++) {
    dds_entity_t rd = dds_create_reader(pp, topics[t], NULL, NULL);
    void *samples[64] = {NULL};
    dds_sample_info_t si[64];
    dds_return_t n = dds_read(rd, samples, si, 64, 64);
    for (int i = 0; i < n; i++) {
      if (!si[i].valid_data) continue;
      const char *topic = "";
      const dds_qos_t *qos;
      if (t == 0) {
        qos = ((dds_builtintopic_participant_t *)samples[i])->qos;
      } else {
        const dds_builtintopic_endpoint_t *e = samples[i];
        if (strncmp(e->topic_name, "rt/", 3) != 0) continue;
        topic = e->topic_name;
        qos = e->qos;
      }
      void *ud = NULL;
      size_t sz = 0;
      if (dds_qget_userdata(qos, &ud, &sz) && sz > 0)
        printf("userdata %s %s %.*s\n", t == 0 ? "participant" : t == 1 ? "writer" : "reader", topic, (int)sz,
               (const char *)ud);
      dds_free(ud);
    }
    if (n > 0) dds_return_loan(rd, samples, n);
    dds_delete(rd);
  }
}

static int discovery(const char *ns, const char *name) {
  dds_entity_t rd = endpoint(0, &rmw_dds_common_msg_dds__ParticipantEntitiesInfo__desc, "ros_discovery_info", qos(1, 0));
  dds_time_t end = dds_time() + DISCOVERY_TIMEOUT;
  while (dds_time() < end) {
    rmw_dds_common_msg_dds__ParticipantEntitiesInfo_ m;
    memset(&m, 0, sizeof m);
    void *samples[1] = {&m};
    dds_sample_info_t si;
    while (dds_take(rd, samples, &si, 1, 1) > 0) {
      for (uint32_t i = 0; si.valid_data && i < m.node_entities_info_seq._length; i++) {
        const rmw_dds_common_msg_dds__NodeEntitiesInfo_ *n = &m.node_entities_info_seq._buffer[i];
        if (strcmp(n->node_namespace, ns) != 0 || strcmp(n->node_name, name) != 0) continue;
        printf("OK node %s %s participant=", n->node_namespace, n->node_name);
        for (int b = 0; b < 16; b++) printf("%02x", m.gid.data[b]);
        print_gids("readers", &n->reader_gid_seq);
        print_gids("writers", &n->writer_gid_seq);
        printf("\n");
        print_userdata();
        return 0;
      }
      rmw_dds_common_msg_dds__ParticipantEntitiesInfo__free(&m, DDS_FREE_CONTENTS);
      memset(&m, 0, sizeof m);
    }
    dds_sleepfor(DDS_MSECS(20));
  }
  fail("node not found in ros_discovery_info within 10 s");
  return 1;
}

/* Relay: navnode's encoding of a type, decoded into idlc's C struct and
 * encoded again from it. */

static const struct {
  const char *name;
  const dds_topic_descriptor_t *desc;
} relay_types[] = {
    {"scan", &sensor_msgs_msg_dds__LaserScan__desc},
    {"odom", &nav_msgs_msg_dds__Odometry__desc},
    {"tf", &tf2_msgs_msg_dds__TFMessage__desc},
    {"markers", &visualization_msgs_msg_dds__MarkerArray__desc},
    {"diag", &diagnostic_msgs_msg_dds__DiagnosticArray__desc},
    {"log", &rcl_interfaces_msg_dds__Log__desc},
};

/* describe prints some fields of a relayed sample by name, for the test to
 * check that the peer's names for them hold navnode's values. */
static void describe(const char *kind, const void *sample) {
  printf("FIELDS %s", kind);
  if (strcmp(kind, "scan") == 0) {
    const sensor_msgs_msg_dds__LaserScan_ *m = sample;
    printf(" frame_id=%s angle_min=%.9g time_increment=%.9g scan_time=%.9g range_max=%.9g ranges=%u ranges[1]=%.9g intensities=%u",
           m->header.frame_id, m->angle_min, m->time_increment, m->scan_time, m->range_max, m->ranges._length,
           m->ranges._length > 1 ? m->ranges._buffer[1] : -1.0, m->intensities._length);
  } else if (strcmp(kind, "odom") == 0) {
    const nav_msgs_msg_dds__Odometry_ *m = sample;
    printf(" child_frame_id=%s pose.position.y=%.17g pose.covariance[35]=%.17g twist.angular.z=%.17g twist.covariance[1]=%.17g",
           m->child_frame_id, m->pose.pose.position.y, m->pose.covariance[35], m->twist.twist.angular.z,
           m->twist.covariance[1]);
  } else if (strcmp(kind, "tf") == 0 && ((const tf2_msgs_msg_dds__TFMessage_ *)sample)->transforms._length == 4) {
    const geometry_msgs_msg_dds__TransformStamped_ *t = ((const tf2_msgs_msg_dds__TFMessage_ *)sample)->transforms._buffer;
    printf(" transforms[1]=%s->%s transforms[3].translation.y=%.17g transforms[3].stamp.nanosec=%u",
           t[1].header.frame_id, t[1].child_frame_id, t[3].transform.translation.y, t[3].header.stamp.nanosec);
  } else if (strcmp(kind, "markers") == 0 && ((const visualization_msgs_msg_dds__MarkerArray_ *)sample)->markers._length == 3) {
    const visualization_msgs_msg_dds__Marker_ *k = ((const visualization_msgs_msg_dds__MarkerArray_ *)sample)->markers._buffer;
    printf(" markers[0].action=%d markers[1].ns=%s lifetime.nanosec=%u frame_locked=%d points=%u text=%s"
           " markers[2].id=%d texture.format=%s uv[0].v=%.9g mesh_file.filename=%s embedded=%d",
           k[0].action, k[1].ns, k[1].lifetime.nanosec, k[1].frame_locked, k[1].points._length, k[1].text, k[2].id,
           k[2].texture.format, k[2].uv_coordinates._length ? k[2].uv_coordinates._buffer[0].v : -1.0,
           k[2].mesh_file.filename, k[2].mesh_use_embedded_materials);
  } else if (strcmp(kind, "diag") == 0 && ((const diagnostic_msgs_msg_dds__DiagnosticArray_ *)sample)->status._length == 3) {
    const diagnostic_msgs_msg_dds__DiagnosticStatus_ *st = ((const diagnostic_msgs_msg_dds__DiagnosticArray_ *)sample)->status._buffer;
    printf(" status[1].level=%u status[1].name=%s status[1].message=%s", st[1].level, st[1].name, st[1].message);
    if (st[0].values._length == 2)
      printf(" status[0].values[1]=%s:%s", st[0].values._buffer[1].key, st[0].values._buffer[1].value);
  } else if (strcmp(kind, "log") == 0) {
    const rcl_interfaces_msg_dds__Log_ *m = sample;
    printf(" level=%u name=%s function=%s line=%u", m->level, m->name, m->function, m->line);
  }
  printf("\n");
}

static int relay(const char *kind) {
  const dds_topic_descriptor_t *d = NULL;
  for (size_t i = 0; i < sizeof relay_types / sizeof relay_types[0]; i++)
    if (strcmp(relay_types[i].name, kind) == 0) d = relay_types[i].desc;
  if (d == NULL) {
    fprintf(stderr, "relay: unknown type %s\n", kind);
    return 2;
  }
  dds_entity_t rd = endpoint(0, d, "rt/relay_in", qos(0, 10));
  dds_entity_t wr = endpoint(1, d, "rt/relay_out", qos(0, 10));
  dds_entity_t ws = dds_create_waitset(pp);
  dds_entity_t rc = dds_create_readcondition(rd, DDS_ANY_STATE);
  dds_waitset_attach(ws, rc, 0);
  printf("READY\n");
  fflush(stdout);
  struct pollfd p = {0, POLLIN, 0};
  char buf[64];
  void *samples[1] = {NULL};
  dds_sample_info_t si;
  int relayed = 0;
  dds_time_t end = dds_time() + DATA_TIMEOUT;
  while (dds_time() < end) {
    dds_waitset_wait(ws, NULL, 0, DDS_MSECS(50));
    while (dds_take(rd, samples, &si, 1, 1) > 0) {
      if (si.valid_data && relayed == 0) describe(kind, samples[0]);
      if (si.valid_data && dds_write(wr, samples[0]) == DDS_RETCODE_OK) relayed++;
      dds_return_loan(rd, samples, 1);
      samples[0] = NULL;
    }
    if (poll(&p, 1, 0) > 0 && read(0, buf, sizeof buf) <= 0) {
      if (relayed == 0) fail("nothing to relay");
      else printf("OK relayed %d %s samples\n", relayed, kind);
      return failures != 0;
    }
  }
  fail("the test never closed stdin");
  return 1;
}

/* Benchmarks. */

static const dds_topic_descriptor_t *bench_type(const char *kind) {
  return strcmp(kind, "cloud") == 0 ? &sensor_msgs_msg_dds__PointCloud2__desc
                                     : &geometry_msgs_msg_dds__PoseStamped__desc;
}

static int echo(const char *kind) {
  const dds_topic_descriptor_t *d = bench_type(kind);
  dds_entity_t rd = endpoint(0, d, "rt/bench_ping", qos(0, 10));
  dds_entity_t wr = endpoint(1, d, "rt/bench_pong", qos(0, 10));
  dds_entity_t ws = dds_create_waitset(pp);
  dds_entity_t rc = dds_create_readcondition(rd, DDS_ANY_STATE);
  dds_waitset_attach(ws, rc, 0);
  void *samples[1] = {NULL};
  dds_sample_info_t si;
  printf("READY\n");
  fflush(stdout);
  for (;;) { /* until killed, or idle for a minute */
    if (dds_waitset_wait(ws, NULL, 0, DDS_SECS(60)) == 0) return 0;
    while (dds_take(rd, samples, &si, 1, 1) > 0) {
      if (si.valid_data) dds_write(wr, samples[0]);
      dds_return_loan(rd, samples, 1);
      samples[0] = NULL;
    }
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int ping(const char *kind, int n) {
  const dds_topic_descriptor_t *d = bench_type(kind);
  dds_entity_t wr = endpoint(1, d, "rt/bench_ping", qos(0, 10));
  dds_entity_t rd = endpoint(0, d, "rt/bench_pong", qos(0, 10));
  dds_entity_t ws = dds_create_waitset(pp);
  dds_entity_t rc = dds_create_readcondition(rd, DDS_ANY_STATE);
  dds_waitset_attach(ws, rc, 0);
  if (!wait_matched(wr)) return 1;
  dds_time_t end = dds_time() + DISCOVERY_TIMEOUT;
  dds_subscription_matched_status_t ms;
  do {
    dds_get_subscription_matched_status(rd, &ms);
    dds_sleepfor(DDS_MSECS(5));
  } while (ms.current_count == 0 && dds_time() < end);
  geometry_msgs_msg_dds__PoseStamped_ pose;
  sensor_msgs_msg_dds__PointCloud2_ cloud;
  fill_goal(&pose);
  int is_cloud = strcmp(kind, "cloud") == 0;
  if (is_cloud) fill_cloud(&cloud, 1u << 20, 0);
  const void *msg = is_cloud ? (const void *)&cloud : (const void *)&pose;
  double *rtt = calloc((size_t)n, sizeof *rtt);
  void *samples[1] = {NULL};
  dds_sample_info_t si;
  int warmup = n / 10;
  for (int i = -warmup; i < n; i++) {
    dds_time_t t0 = dds_time();
    dds_write(wr, msg);
    int got = 0;
    while (!got) {
      if (dds_waitset_wait(ws, NULL, 0, DDS_SECS(5)) <= 0) {
        fail("echo timed out");
        return 1;
      }
      while (dds_take(rd, samples, &si, 1, 1) > 0) {
        got |= si.valid_data;
        dds_return_loan(rd, samples, 1);
        samples[0] = NULL;
      }
    }
    if (i >= 0) rtt[i] = (double)(dds_time() - t0) / 1e3;
  }
  qsort(rtt, (size_t)n, sizeof *rtt, cmp_double);
  printf("OK rtt_us p50=%.1f p99=%.1f n=%d\n", rtt[n / 2], rtt[(n * 99) / 100], n);
  return 0;
}

static int sink(int seconds) {
  dds_entity_t rd = endpoint(0, &sensor_msgs_msg_dds__PointCloud2__desc, "rt/bench_tput", qos(0, 10));
  dds_entity_t ws = dds_create_waitset(pp);
  dds_entity_t rc = dds_create_readcondition(rd, DDS_ANY_STATE);
  dds_waitset_attach(ws, rc, 0);
  printf("READY\n");
  fflush(stdout);
  void *samples[1] = {NULL};
  dds_sample_info_t si;
  long count = 0;
  double bytes = 0;
  dds_time_t first = 0, last = 0, end = dds_time() + DDS_SECS(seconds);
  while (dds_time() < end) {
    dds_waitset_wait_until(ws, NULL, 0, end);
    while (dds_take(rd, samples, &si, 1, 1) > 0) {
      if (si.valid_data) {
        last = dds_time();
        if (count++ == 0) first = last;
        else bytes += ((sensor_msgs_msg_dds__PointCloud2_ *)samples[0])->data._length;
      }
      dds_return_loan(rd, samples, 1);
      samples[0] = NULL;
    }
  }
  double secs = (double)(last - first) / 1e9;
  printf("OK received %ld messages, %.1f MB/s\n", count, count > 1 ? bytes / secs / 1e6 : 0.0);
  return count < 2;
}

static int source(uint32_t bytes, int seconds) {
  dds_entity_t wr = endpoint(1, &sensor_msgs_msg_dds__PointCloud2__desc, "rt/bench_tput", qos(0, 10));
  if (!wait_matched(wr)) return 1;
  sensor_msgs_msg_dds__PointCloud2_ m;
  fill_cloud(&m, bytes, 0);
  dds_time_t end = dds_time() + DDS_SECS(seconds);
  long n = 0;
  while (dds_time() < end) {
    dds_write(wr, &m);
    n++;
  }
  dds_wait_for_acks(wr, DATA_TIMEOUT);
  printf("OK sent %ld messages\n", n);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: cyclone-peer MODE [ARGS]\n");
    return 2;
  }
  const char *d = getenv("ROS_DOMAIN_ID");
  pp = dds_create_participant(d ? (dds_domainid_t)atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "participant: %s\n", dds_strretcode(pp));
    return 2;
  }
  const char *mode = argv[1];
  int rc = 2;
  if (strcmp(mode, "goal") == 0) rc = goal();
  else if (strcmp(mode, "plan") == 0) rc = plan();
  else if (strcmp(mode, "latemap") == 0) rc = latemap();
  else if (strcmp(mode, "cloudsend") == 0) rc = cloudsend();
  else if (strcmp(mode, "cloudrecv") == 0) rc = cloudrecv();
  else if (strcmp(mode, "discovery") == 0 && argc == 4) rc = discovery(argv[2], argv[3]);
  else if (strcmp(mode, "relay") == 0 && argc == 3) rc = relay(argv[2]);
  else if (strcmp(mode, "echo") == 0 && argc == 3) rc = echo(argv[2]);
  else if (strcmp(mode, "ping") == 0 && argc == 4) rc = ping(argv[2], atoi(argv[3]));
  else if (strcmp(mode, "sink") == 0 && argc == 3) rc = sink(atoi(argv[2]));
  else if (strcmp(mode, "source") == 0 && argc == 4) rc = source((uint32_t)atoi(argv[2]), atoi(argv[3]));
  else fprintf(stderr, "unknown mode %s\n", mode);
  fflush(stdout);
  dds_delete(pp);
  return rc;
}
