/* A QEMU TCG plugin that counts the guest instructions a program executes (tools/bench/
 * arm_instructions.sh: instructions per word under qemu-aarch64 / qemu-arm, where QEMU gives no
 * timings). Debian's qemu-user supports plugins but ships neither the plugin header nor the
 * contrib plugins, so the few entry points of QEMU's stable plugin API (version 1, QEMU 7.2,
 * include/qemu/qemu-plugin.h) are declared here. Prints "insns: N" on exit (-d plugin). */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct {
  int dummy;
} qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb, enum qemu_plugin_op op,
                                              void* ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
void qemu_plugin_outs(const char* string);
__attribute__((visibility("default"))) int qemu_plugin_version = 1;
/* Executed instructions: each translated block adds its length inline every time it runs. */
static uint64_t count;
static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &count,
                                           qemu_plugin_tb_n_insns(tb));
}
static void at_exit(qemu_plugin_id_t id, void* p) {
  (void)id;
  (void)p;
  char buf[64];
  snprintf(buf, sizeof buf, "insns: %" PRIu64 "\n", count);
  qemu_plugin_outs(buf);
}
__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t* info, int argc,
                                                               char** argv) {
  (void)info;
  (void)argc;
  (void)argv;
  qemu_plugin_register_vcpu_tb_trans_cb(id, trans);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
