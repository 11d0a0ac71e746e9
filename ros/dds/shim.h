/* The C half of ros/dds: an opaque CDR sertype for CycloneDDS 0.10 and the
 * few helpers Go calls. Go serializes messages with navnode's msgs codecs;
 * Cyclone carries the bytes. Topics are keyless and carry no XTypes type
 * information, as rmw_cyclonedds does. Nothing here calls into Go or keeps a
 * Go pointer past the call that passed it. */
#ifndef NAVNODE_ROS_DDS_SHIM_H
#define NAVNODE_ROS_DDS_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "dds/dds.h"

/* QoS of a writer or reader, in plain fields. Durations in nanoseconds;
 * zero or negative means infinite. */
typedef struct navdds_qos {
  int32_t reliable;        /* 1 reliable, 0 best effort */
  int32_t transient_local; /* 1 transient local, 0 volatile */
  int32_t keep_all;        /* 1 keep all, 0 keep last depth */
  int32_t depth;
  int64_t deadline;
  int64_t lifespan;
  int32_t manual_by_topic; /* liveliness: 1 manual by topic, 0 automatic */
  int64_t lease;
} navdds_qos;

/* One sample taken from a reader. data points into the serdata, of which
 * it holds a reference until navdds_release. */
typedef struct navdds_sample {
  struct ddsi_serdata *sd;
  const unsigned char *data;
  uint32_t size; /* bytes, encapsulation header included, padded to 4 */
  int32_t valid;
} navdds_sample;

/* Another endpoint on a topic, from the builtin discovery topics. */
typedef struct navdds_peer {
  uint8_t guid[16];
  navdds_qos qos;
} navdds_peer;

/* Status of a writer or reader; reading it clears the change counter. */
typedef struct navdds_status {
  uint32_t incompatible_new; /* incompatible peers seen since last read */
  int32_t last_policy;       /* dds_qos_policy_id_t of the last incompatibility */
} navdds_status;

dds_entity_t navdds_create_domain(uint32_t id, const char *config);
dds_entity_t navdds_create_participant(uint32_t id, const void *userdata, size_t n);
dds_entity_t navdds_create_topic(dds_entity_t pp, const char *name, const char *type_name,
                                 struct ddsi_sertype **sertype);
dds_entity_t navdds_create_writer(dds_entity_t pp, dds_entity_t topic, const navdds_qos *q,
                                  const void *userdata, size_t n);
dds_entity_t navdds_create_reader(dds_entity_t pp, dds_entity_t topic, const navdds_qos *q,
                                  const void *userdata, size_t n);
dds_return_t navdds_write(dds_entity_t wr, const struct ddsi_sertype *st, const void *p, size_t n);
struct ddsi_serdata *navdds_serdata_alloc(const struct ddsi_sertype *st, uint32_t capacity, unsigned char **data);
dds_return_t navdds_write_serdata(dds_entity_t wr, struct ddsi_serdata *sd, uint32_t n);
void navdds_serdata_free(struct ddsi_serdata *sd);
int32_t navdds_take_one(dds_entity_t rd, const struct ddsi_sertype *st, navdds_sample *out);
void navdds_release(navdds_sample *s);
dds_return_t navdds_writer_status(dds_entity_t wr, navdds_status *st);
dds_return_t navdds_reader_status(dds_entity_t rd, navdds_status *st);
int32_t navdds_peers(dds_entity_t pp, int32_t publications, const char *topic, const char *type_name,
                     navdds_peer *out, int32_t max);
dds_entity_t navdds_create_waitset(dds_entity_t pp, dds_entity_t *guard);
dds_return_t navdds_attach_status(dds_entity_t ws, dds_entity_t entity, int32_t is_reader);
dds_entity_t navdds_create_reader_waitset(dds_entity_t pp, dds_entity_t rd, dds_entity_t *guard);
int32_t navdds_wait(dds_entity_t ws, dds_attach_t *xs, int32_t max);

#endif
