/* cyclone-evil: publishes three malformed geometry_msgs/PoseStamped
 * payloads on /goal_pose (see evil.idl). Exits 0 once they are
 * acknowledged. Domain from ROS_DOMAIN_ID, configuration from
 * CYCLONEDDS_URI. */
#include <stdio.h>
#include <stdlib.h>

#include "dds/dds.h"
#include "evil.h"

int main(void) {
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? (dds_domainid_t)atoi(d) : 0, NULL, NULL);
  dds_entity_t tp = dds_create_topic(pp, &geometry_msgs_msg_dds__PoseStamped__desc, "rt/goal_pose", NULL, NULL);
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_INFINITY);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  dds_entity_t wr = dds_create_writer(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (pp < 0 || tp < 0 || wr < 0) {
    fprintf(stderr, "FAIL creating entities\n");
    return 2;
  }
  dds_publication_matched_status_t st = {0};
  dds_time_t end = dds_time() + DDS_SECS(10);
  while (st.current_count == 0 && dds_time() < end) {
    dds_sleepfor(DDS_MSECS(5));
    dds_get_publication_matched_status(wr, &st);
  }
  if (st.current_count == 0) {
    printf("FAIL no subscription matched within 10 s\n");
    return 1;
  }
  uint32_t lengths[3] = {0x7fffffffu, 1000u, 0xffffffffu};
  for (int i = 0; i < 3; i++) {
    geometry_msgs_msg_dds__PoseStamped_ m = {1, 2, lengths[i]};
    dds_write(wr, &m);
  }
  int rc = dds_wait_for_acks(wr, DDS_SECS(10)) < 0;
  printf(rc ? "FAIL not acknowledged\n" : "OK 3 malformed PoseStamped sent\n");
  dds_delete(pp);
  return rc;
}
