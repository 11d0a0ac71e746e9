/* The C half of ros/dds; see shim.h. Serdata hold the CDR payload in one
 * allocation, padded with zeros to a multiple of 4 bytes because Cyclone may
 * send align4(size) bytes (as rmw_cyclonedds pads its serdata). */
#include "shim.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dds/ddsi/ddsi_serdata.h"
#include "dds/ddsi/ddsi_sertype.h"
#include "dds/ddsi/q_radmin.h"

struct navdds_serdata {
  struct ddsi_serdata c;
  uint32_t size;     /* payload bytes, padded to 4 */
  uint32_t capacity; /* bytes allocated for data */
  struct navdds_serdata *next; /* in the cache */
  unsigned char data[];
};

/* Serdata of 64 KiB and more are kept for reuse, up to 64 MiB in all:
 * releasing a large buffer to the kernel and faulting it in again for the
 * next point cloud costs more than copying it. */
enum { CACHE_MIN = 64 << 10, CACHE_CHUNK = 64 << 10 };
static const size_t cache_max = 64u << 20;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct navdds_serdata *cache_head;
static size_t cache_bytes;

/* cache_take returns a cached serdata that holds n bytes without wasting
 * more than half of it, or NULL. */
static struct navdds_serdata *cache_take(uint32_t n) {
  pthread_mutex_lock(&cache_lock);
  struct navdds_serdata **p = &cache_head, *d = NULL;
  for (; *p != NULL; p = &(*p)->next) {
    if ((*p)->capacity >= n && (*p)->capacity / 2 <= n) {
      d = *p;
      *p = d->next;
      cache_bytes -= d->capacity;
      break;
    }
  }
  pthread_mutex_unlock(&cache_lock);
  return d;
}

/* cache_put keeps d if there is room, and reports whether it did. */
static bool cache_put(struct navdds_serdata *d) {
  if (d->capacity < CACHE_MIN) return false;
  pthread_mutex_lock(&cache_lock);
  bool keep = cache_bytes + d->capacity <= cache_max;
  if (keep) {
    d->next = cache_head;
    cache_head = d;
    cache_bytes += d->capacity;
  }
  pthread_mutex_unlock(&cache_lock);
  return keep;
}

/* What dds_write/dds_take would use as a sample; navnode uses the *cdr calls,
 * but the sertype ops must still be complete and safe. */
struct navdds_blob {
  void *data;
  uint32_t size;
};

static const struct ddsi_serdata_ops navdds_serdata_ops;

static uint32_t align4(size_t n) { return (uint32_t)((n + 3u) & ~(size_t)3u); }

static struct navdds_serdata *serdata_new(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind,
                                          size_t size) {
  uint32_t padded = align4(size);
  struct navdds_serdata *d = padded >= CACHE_MIN ? cache_take(padded) : NULL;
  if (d == NULL) {
    uint32_t capacity = padded >= CACHE_MIN ? (padded + CACHE_CHUNK - 1) / CACHE_CHUNK * CACHE_CHUNK : padded;
    d = malloc(sizeof(*d) + capacity);
    if (d == NULL) return NULL;
    d->capacity = capacity;
  }
  ddsi_serdata_init(&d->c, type, kind);
  d->c.hash = type ? type->serdata_basehash : 0;
  d->size = padded;
  memset(d->data + size, 0, padded - size);
  return d;
}

static bool sd_eqkey(const struct ddsi_serdata *a, const struct ddsi_serdata *b) {
  (void)a;
  (void)b;
  return true; /* keyless */
}

static uint32_t sd_size(const struct ddsi_serdata *d) { return ((const struct navdds_serdata *)d)->size; }

static struct ddsi_serdata *sd_from_ser(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind,
                                        const struct nn_rdata *frag, size_t size) {
  struct navdds_serdata *d = serdata_new(type, kind, size);
  if (d == NULL) return NULL;
  uint32_t off = 0;
  for (; frag != NULL; frag = frag->nextfrag) {
    if (frag->maxp1 <= off) continue; /* fragments may overlap */
    const unsigned char *p = NN_RMSG_PAYLOADOFF(frag->rmsg, NN_RDATA_PAYLOAD_OFF(frag));
    memcpy(d->data + off, p + off - frag->min, frag->maxp1 - off);
    off = frag->maxp1;
  }
  return &d->c;
}

static struct ddsi_serdata *sd_from_ser_iov(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind,
                                            ddsrt_msg_iovlen_t niov, const ddsrt_iovec_t *iov, size_t size) {
  struct navdds_serdata *d = serdata_new(type, kind, size);
  if (d == NULL) return NULL;
  size_t off = 0;
  for (ddsrt_msg_iovlen_t i = 0; i < niov && off < size; i++) {
    size_t n = iov[i].iov_len < size - off ? iov[i].iov_len : size - off;
    memcpy(d->data + off, iov[i].iov_base, n);
    off += n;
  }
  return &d->c;
}

static struct ddsi_serdata *sd_from_keyhash(const struct ddsi_sertype *type, const struct ddsi_keyhash *kh) {
  (void)kh;
  struct navdds_serdata *d = serdata_new(type, SDK_KEY, 0);
  return d ? &d->c : NULL;
}

static struct ddsi_serdata *sd_from_sample(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind,
                                           const void *sample) {
  const struct navdds_blob *b = sample;
  if (kind != SDK_DATA) return sd_from_keyhash(type, NULL);
  struct navdds_serdata *d = serdata_new(type, kind, b->size);
  if (d == NULL) return NULL;
  memcpy(d->data, b->data, b->size);
  return &d->c;
}

static void sd_to_ser(const struct ddsi_serdata *dc, size_t off, size_t sz, void *buf) {
  memcpy(buf, ((const struct navdds_serdata *)dc)->data + off, sz);
}

static struct ddsi_serdata *sd_to_ser_ref(const struct ddsi_serdata *dc, size_t off, size_t sz,
                                          ddsrt_iovec_t *ref) {
  const struct navdds_serdata *d = (const struct navdds_serdata *)dc;
  ref->iov_base = (void *)(d->data + off);
  ref->iov_len = (ddsrt_iov_len_t)sz;
  return ddsi_serdata_ref(dc);
}

static void sd_to_ser_unref(struct ddsi_serdata *d, const ddsrt_iovec_t *ref) {
  (void)ref;
  ddsi_serdata_unref(d);
}

static bool sd_to_sample(const struct ddsi_serdata *dc, void *sample, void **bufptr, void *buflim) {
  (void)bufptr;
  (void)buflim;
  const struct navdds_serdata *d = (const struct navdds_serdata *)dc;
  struct navdds_blob *b = sample;
  void *p = realloc(b->data, d->size ? d->size : 1);
  if (p == NULL) return false;
  memcpy(p, d->data, d->size);
  b->data = p;
  b->size = d->size;
  return true;
}

static struct ddsi_serdata *sd_to_untyped(const struct ddsi_serdata *dc) {
  struct navdds_serdata *d = serdata_new(dc->type, SDK_KEY, 0);
  if (d == NULL) return NULL;
  d->c.type = NULL;
  return &d->c;
}

static bool sd_untyped_to_sample(const struct ddsi_sertype *type, const struct ddsi_serdata *d, void *sample,
                                 void **bufptr, void *buflim) {
  (void)type;
  (void)d;
  (void)sample;
  (void)bufptr;
  (void)buflim;
  return true; /* keyless: nothing to fill */
}

static void sd_free(struct ddsi_serdata *dc) {
  struct navdds_serdata *d = (struct navdds_serdata *)dc;
  if (!cache_put(d)) free(d);
}

static size_t sd_print(const struct ddsi_sertype *type, const struct ddsi_serdata *dc, char *buf, size_t n) {
  (void)type;
  return (size_t)snprintf(buf, n, "<%u bytes of CDR>", (unsigned)((const struct navdds_serdata *)dc)->size);
}

static void sd_get_keyhash(const struct ddsi_serdata *d, struct ddsi_keyhash *buf, bool force_md5) {
  (void)d;
  (void)force_md5;
  memset(buf, 0, sizeof(*buf));
}

static const struct ddsi_serdata_ops navdds_serdata_ops = {
    .eqkey = sd_eqkey,
    .get_size = sd_size,
    .from_ser = sd_from_ser,
    .from_ser_iov = sd_from_ser_iov,
    .from_keyhash = sd_from_keyhash,
    .from_sample = sd_from_sample,
    .to_ser = sd_to_ser,
    .to_ser_ref = sd_to_ser_ref,
    .to_ser_unref = sd_to_ser_unref,
    .to_sample = sd_to_sample,
    .to_untyped = sd_to_untyped,
    .untyped_to_sample = sd_untyped_to_sample,
    .free = sd_free,
    .print = sd_print,
    .get_keyhash = sd_get_keyhash,
};

static void st_free(struct ddsi_sertype *st) {
  ddsi_sertype_fini(st);
  free(st);
}

static void st_zero_samples(const struct ddsi_sertype *st, void *samples, size_t count) {
  (void)st;
  memset(samples, 0, count * sizeof(struct navdds_blob));
}

static void st_realloc_samples(void **ptrs, const struct ddsi_sertype *st, void *old, size_t oldcount,
                               size_t count) {
  (void)st;
  struct navdds_blob *b = realloc(old, count * sizeof(*b));
  if (b != NULL && count > oldcount) memset(b + oldcount, 0, (count - oldcount) * sizeof(*b));
  for (size_t i = 0; i < count; i++) ptrs[i] = b ? &b[i] : NULL;
}

static void st_free_samples(const struct ddsi_sertype *st, void **ptrs, size_t count, dds_free_op_t op) {
  (void)st;
  if (count == 0 || ptrs[0] == NULL) return;
  struct navdds_blob *b = ptrs[0];
  if (op & DDS_FREE_CONTENTS_BIT)
    for (size_t i = 0; i < count; i++) free(b[i].data);
  if (op & DDS_FREE_ALL_BIT) free(b);
}

static bool st_equal(const struct ddsi_sertype *a, const struct ddsi_sertype *b) {
  (void)a;
  (void)b;
  return true; /* Cyclone already compared the type names and ops */
}

static uint32_t st_hash(const struct ddsi_sertype *st) {
  (void)st;
  return 0;
}

static const struct ddsi_sertype_ops navdds_sertype_ops = {
    .version = ddsi_sertype_v0,
    .free = st_free,
    .zero_samples = st_zero_samples,
    .realloc_samples = st_realloc_samples,
    .free_samples = st_free_samples,
    .equal = st_equal,
    .hash = st_hash,
    /* type_id, type_map, type_info, derive_sertype stay NULL: no type information on the wire */
};

dds_entity_t navdds_create_domain(uint32_t id, const char *config) { return dds_create_domain(id, config); }

dds_entity_t navdds_create_participant(uint32_t id, const void *userdata, size_t n) {
  dds_qos_t *qos = dds_create_qos();
  if (n > 0) dds_qset_userdata(qos, userdata, n);
  dds_entity_t pp = dds_create_participant(id, qos, NULL);
  dds_delete_qos(qos);
  return pp;
}

dds_entity_t navdds_create_topic(dds_entity_t pp, const char *name, const char *type_name,
                                 struct ddsi_sertype **sertype) {
  struct ddsi_sertype *st = calloc(1, sizeof(*st));
  if (st == NULL) return DDS_RETCODE_OUT_OF_RESOURCES;
  ddsi_sertype_init_flags(st, type_name, &navdds_sertype_ops, &navdds_serdata_ops,
                          DDSI_SERTYPE_FLAG_TOPICKIND_NO_KEY);
  st->allowed_data_representation = DDS_DATA_REPRESENTATION_FLAG_XCDR1;
  struct ddsi_sertype *in_use = st;
  dds_entity_t tp = dds_create_topic_sertype(pp, name, &in_use, NULL, NULL, NULL);
  if (tp < 0) {
    ddsi_sertype_unref(st);
    return tp;
  }
  *sertype = in_use; /* Cyclone may hand back an equal sertype it already had */
  return tp;
}

static dds_qos_t *endpoint_qos(const navdds_qos *q, const void *userdata, size_t n, int writer) {
  dds_qos_t *qos = dds_create_qos();
  dds_qset_reliability(qos, q->reliable ? DDS_RELIABILITY_RELIABLE : DDS_RELIABILITY_BEST_EFFORT,
                       q->reliable ? DDS_INFINITY : 0);
  dds_history_kind_t hist = q->keep_all ? DDS_HISTORY_KEEP_ALL : DDS_HISTORY_KEEP_LAST;
  int32_t depth = q->keep_all ? DDS_LENGTH_UNLIMITED : (q->depth > 0 ? q->depth : 1);
  dds_qset_history(qos, hist, depth);
  if (q->transient_local) {
    dds_qset_durability(qos, DDS_DURABILITY_TRANSIENT_LOCAL);
    /* late joiners get the writer's history, not Cyclone's default of 1 sample */
    dds_qset_durability_service(qos, 0, hist, depth, DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED,
                                DDS_LENGTH_UNLIMITED);
  } else {
    dds_qset_durability(qos, DDS_DURABILITY_VOLATILE);
  }
  if (q->deadline > 0) dds_qset_deadline(qos, q->deadline);
  if (q->lifespan > 0 && writer) dds_qset_lifespan(qos, q->lifespan);
  dds_qset_liveliness(qos, q->manual_by_topic ? DDS_LIVELINESS_MANUAL_BY_TOPIC : DDS_LIVELINESS_AUTOMATIC,
                      q->lease > 0 ? q->lease : DDS_INFINITY);
  if (writer) dds_qset_writer_data_lifecycle(qos, false);
  if (n > 0) dds_qset_userdata(qos, userdata, n);
  return qos;
}

dds_entity_t navdds_create_writer(dds_entity_t pp, dds_entity_t topic, const navdds_qos *q,
                                  const void *userdata, size_t n) {
  dds_qos_t *qos = endpoint_qos(q, userdata, n, 1);
  dds_entity_t wr = dds_create_writer(pp, topic, qos, NULL);
  dds_delete_qos(qos);
  return wr;
}

dds_entity_t navdds_create_reader(dds_entity_t pp, dds_entity_t topic, const navdds_qos *q,
                                  const void *userdata, size_t n) {
  dds_qos_t *qos = endpoint_qos(q, userdata, n, 0);
  dds_entity_t rd = dds_create_reader(pp, topic, qos, NULL);
  dds_delete_qos(qos);
  return rd;
}

dds_return_t navdds_write(dds_entity_t wr, const struct ddsi_sertype *st, const void *p, size_t n) {
  ddsrt_iovec_t iov = {.iov_base = (void *)p, .iov_len = (ddsrt_iov_len_t)n};
  struct ddsi_serdata *d = sd_from_ser_iov(st, SDK_DATA, 1, &iov, n);
  if (d == NULL) return DDS_RETCODE_OUT_OF_RESOURCES;
  return dds_writecdr(wr, d); /* consumes d */
}

/* navdds_serdata_alloc returns an empty data serdata whose buffer holds at
 * least capacity bytes, for the caller to fill and then publish with
 * navdds_write_serdata or drop with navdds_serdata_free. */
struct ddsi_serdata *navdds_serdata_alloc(const struct ddsi_sertype *st, uint32_t capacity, unsigned char **data) {
  struct navdds_serdata *d = serdata_new(st, SDK_DATA, capacity);
  if (d == NULL) return NULL;
  *data = d->data;
  return &d->c;
}

/* navdds_write_serdata publishes the first n bytes of sd's buffer. */
dds_return_t navdds_write_serdata(dds_entity_t wr, struct ddsi_serdata *sd, uint32_t n) {
  struct navdds_serdata *d = (struct navdds_serdata *)sd;
  uint32_t padded = align4(n);
  if (padded > d->capacity) {
    ddsi_serdata_unref(sd);
    return DDS_RETCODE_BAD_PARAMETER;
  }
  memset(d->data + n, 0, padded - n);
  d->size = padded;
  return dds_writecdr(wr, sd); /* consumes sd */
}

void navdds_serdata_free(struct ddsi_serdata *sd) { ddsi_serdata_unref(sd); }

int32_t navdds_take_one(dds_entity_t rd, const struct ddsi_sertype *st, navdds_sample *out) {
  struct ddsi_serdata *d = NULL;
  dds_sample_info_t si;
  dds_return_t n = dds_takecdr(rd, &d, 1, &si, DDS_ANY_STATE);
  if (n <= 0) return n;
  if (si.valid_data && d->ops != &navdds_serdata_ops) {
    /* a local writer of another sertype: convert to ours */
    struct ddsi_serdata *conv = ddsi_serdata_ref_as_type(st, d);
    ddsi_serdata_unref(d);
    d = conv;
  }
  out->sd = d;
  out->valid = si.valid_data && d != NULL && d->kind == SDK_DATA;
  out->data = out->valid ? ((struct navdds_serdata *)d)->data : NULL;
  out->size = out->valid ? ((struct navdds_serdata *)d)->size : 0;
  return 1;
}

void navdds_release(navdds_sample *s) {
  if (s->sd != NULL) ddsi_serdata_unref(s->sd);
}

dds_return_t navdds_writer_status(dds_entity_t wr, navdds_status *st) {
  dds_offered_incompatible_qos_status_t q;
  dds_return_t rc = dds_get_offered_incompatible_qos_status(wr, &q);
  if (rc < 0) return rc;
  st->incompatible_new = q.total_count_change;
  st->last_policy = (int32_t)q.last_policy_id;
  return 0;
}

dds_return_t navdds_reader_status(dds_entity_t rd, navdds_status *st) {
  dds_requested_incompatible_qos_status_t q;
  dds_return_t rc = dds_get_requested_incompatible_qos_status(rd, &q);
  if (rc < 0) return rc;
  st->incompatible_new = q.total_count_change;
  st->last_policy = (int32_t)q.last_policy_id;
  return 0;
}

static void qos_from_dds(const dds_qos_t *qos, navdds_qos *q) {
  memset(q, 0, sizeof(*q));
  dds_reliability_kind_t rk;
  dds_duration_t d;
  if (dds_qget_reliability(qos, &rk, &d)) q->reliable = rk == DDS_RELIABILITY_RELIABLE;
  dds_durability_kind_t dk;
  if (dds_qget_durability(qos, &dk)) q->transient_local = dk >= DDS_DURABILITY_TRANSIENT_LOCAL;
  dds_history_kind_t hk;
  int32_t depth = 1;
  if (dds_qget_history(qos, &hk, &depth)) q->keep_all = hk == DDS_HISTORY_KEEP_ALL;
  q->depth = depth;
  if (dds_qget_deadline(qos, &d) && d != DDS_INFINITY) q->deadline = d;
  if (dds_qget_lifespan(qos, &d) && d != DDS_INFINITY) q->lifespan = d;
  dds_liveliness_kind_t lk;
  if (dds_qget_liveliness(qos, &lk, &d)) {
    q->manual_by_topic = lk == DDS_LIVELINESS_MANUAL_BY_TOPIC;
    if (d != DDS_INFINITY) q->lease = d;
  }
}

int32_t navdds_peers(dds_entity_t pp, int32_t publications, const char *topic, const char *type_name,
                     navdds_peer *out, int32_t max) {
  dds_entity_t rd = dds_create_reader(
      pp, publications ? DDS_BUILTIN_TOPIC_DCPSPUBLICATION : DDS_BUILTIN_TOPIC_DCPSSUBSCRIPTION, NULL, NULL);
  if (rd < 0) return rd;
  enum { batch = 64 };
  void *samples[batch];
  dds_sample_info_t si[batch];
  int32_t found = 0;
  dds_return_t n;
  do { /* every endpoint of the graph, a batch at a time */
    memset(samples, 0, sizeof(samples));
    n = dds_take(rd, samples, si, batch, batch);
    for (int32_t i = 0; i < n && found < max; i++) {
      const dds_builtintopic_endpoint_t *e = samples[i];
      if (!si[i].valid_data || strcmp(e->topic_name, topic) != 0 || strcmp(e->type_name, type_name) != 0)
        continue;
      memcpy(out[found].guid, e->key.v, 16);
      qos_from_dds(e->qos, &out[found].qos);
      found++;
    }
    if (n > 0) dds_return_loan(rd, samples, n);
  } while (n == batch && found < max);
  dds_delete(rd);
  return n < 0 ? n : found;
}

dds_entity_t navdds_create_waitset(dds_entity_t pp, dds_entity_t *guard) {
  dds_entity_t ws = dds_create_waitset(pp);
  if (ws < 0) return ws;
  dds_entity_t gc = dds_create_guardcondition(pp);
  if (gc < 0) {
    dds_delete(ws);
    return gc;
  }
  dds_return_t rc = dds_waitset_attach(ws, gc, 0);
  if (rc < 0) {
    dds_delete(gc);
    dds_delete(ws);
    return rc;
  }
  *guard = gc;
  return ws;
}

/* Status waitset attach values: 0 for the guard, the entity for its statuses. */
dds_return_t navdds_attach_status(dds_entity_t ws, dds_entity_t entity, int32_t is_reader) {
  uint32_t mask = is_reader ? DDS_REQUESTED_INCOMPATIBLE_QOS_STATUS : DDS_OFFERED_INCOMPATIBLE_QOS_STATUS;
  dds_return_t rc = dds_set_status_mask(entity, mask);
  if (rc < 0) return rc;
  return dds_waitset_attach(ws, entity, (dds_attach_t)entity);
}

/* A reader's own waitset: its guard (attach value 0) and a read condition
   on any sample (attach value 1). */
dds_entity_t navdds_create_reader_waitset(dds_entity_t pp, dds_entity_t rd, dds_entity_t *guard) {
  dds_entity_t ws = navdds_create_waitset(pp, guard);
  if (ws < 0) return ws;
  dds_entity_t cond = dds_create_readcondition(rd, DDS_ANY_STATE);
  dds_return_t rc = cond < 0 ? cond : dds_waitset_attach(ws, cond, 1);
  if (rc < 0) {
    dds_delete(*guard);
    dds_delete(ws);
    return rc;
  }
  return ws;
}

int32_t navdds_wait(dds_entity_t ws, dds_attach_t *xs, int32_t max) {
  return dds_waitset_wait(ws, xs, (size_t)max, DDS_INFINITY);
}
