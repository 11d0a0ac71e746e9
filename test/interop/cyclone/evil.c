/* cyclone-evil: publishes three malformed geometry_msgs/PoseStamped
 * payloads on /goal_pose (see evil.idl). Exits 0 once they are
 * acknowledged. Domain from ROS_DOMAIN_ID, configuration from
 * CYCLONEDDS_URI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>

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
  printf("READY\n"); /* wait for the test's go: navnode's reader must have matched us */
  fflush(stdout);
  char line[16];
  if (fgets(line, sizeof line, stdin) == NULL || strncmp(line, "go", 2) != 0) {
    printf("FAIL no go from the test\n");
    return 1;
  }
  /* Three malformed samples a second until the test closes our stdin. */
  uint32_t lengths[3] = {0x7fffffffu, 1000u, 0xffffffffu};
  struct pollfd p = {0, POLLIN, 0};
  dds_time_t stop = dds_time() + DDS_SECS(30);
  int rounds = 0;
  while (dds_time() < stop) {
    for (int i = 0; i < 3; i++) {
      geometry_msgs_msg_dds__PoseStamped_ m = {1, 2, lengths[i]};
      dds_write(wr, &m);
    }
    rounds++;
    if (poll(&p, 1, 1000) > 0 && read(0, line, sizeof line) <= 0) break;
  }
  printf("OK %d rounds of 3 malformed PoseStamped sent\n", rounds);
  dds_delete(pp);
  return 0;
}
