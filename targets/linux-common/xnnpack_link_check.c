// Proves the target sysroot (scripts/make-sysroot.sh) provides a working XNNPACK for issue 15's
// backend: initializes XNNPACK and runs one float32 fully-connected operator (2 inputs, 3
// outputs) on the target (QEMU in make test-arm). Nothing in the runtime links XNNPACK yet.
#include <math.h>
#include <stdio.h>

#include <xnnpack.h>

int main(void) {
  enum xnn_status status = xnn_initialize(NULL);
  if (status != xnn_status_success) {
    fprintf(stderr, "xnnpack_link_check: xnn_initialize: status %d\n", (int)status);
    return 1;
  }
  static const float kWeights[3 * 2] = {1.0f, 2.0f, -1.0f, 0.5f, 0.0f, 3.0f};  // [out][in]
  static const float kBias[3] = {0.25f, 0.0f, -1.0f};
  static const float kInput[2] = {2.0f, -1.0f};
  static const float kExpected[3] = {0.25f, -2.5f, -4.0f};
  float output[3] = {0.0f, 0.0f, 0.0f};
  xnn_operator_t op = NULL;
  status =
      xnn_create_fully_connected_nc_f32(2, 3, 2, 3, kWeights, kBias, -INFINITY, INFINITY, 0, &op);
  if (status == xnn_status_success)
    status = xnn_setup_fully_connected_nc_f32(op, 1, kInput, output, NULL);
  if (status == xnn_status_success) status = xnn_run_operator(op, NULL);
  if (op != NULL) xnn_delete_operator(op);
  if (status != xnn_status_success) {
    fprintf(stderr, "xnnpack_link_check: fully connected: status %d\n", (int)status);
    return 1;
  }
  for (int i = 0; i < 3; ++i) {
    if (fabsf(output[i] - kExpected[i]) > 1e-6f) {
      fprintf(stderr, "xnnpack_link_check: output[%d] = %g, expected %g\n", i, output[i],
              kExpected[i]);
      return 1;
    }
  }
  xnn_deinitialize();
  printf(
      "xnnpack_link_check: XNNPACK from the sysroot initializes and computes (fully connected "
      "f32)\n");
  return 0;
}
