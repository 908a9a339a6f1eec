/* The model file (EDGENMT_FIRMWARE_MODEL, set by the build) as a const array in flash:
 * section .edgenmt_model, which the board's linker script puts in its model region. */
  .section .edgenmt_model, "a", %progbits
  .balign 64
  .global edgenmt_model_data
  .type edgenmt_model_data, %object
edgenmt_model_data:
  .incbin EDGENMT_FIRMWARE_MODEL
  .size edgenmt_model_data, . - edgenmt_model_data
  .global edgenmt_model_data_end
edgenmt_model_data_end:
