// Assembly text shared by the aarch64 row-group loops (dot_f32_neon.cc: FMLA on float32,
// dot_neon_dotprod.cc: SDOT on int8): string pieces for GCC inline assembly whose operands
// are named %[w], %[s] (the row stride in bytes) and %[p0] .. %[p7]. Weight rows load into
// v16-v31, four registers a row.
#ifndef EDGENMT_KERNELS_ARM_NEON_A64_ROW_GROUP_ASM_H_
#define EDGENMT_KERNELS_ARM_NEON_A64_ROW_GROUP_ASM_H_

// p0 .. p7 = the 8 rows from w.
#define EDGENMT_A64_ROW_POINTERS_8 \
  "mov   %[p0], %[w]\n\t"          \
  "add   %[p1], %[p0], %[s]\n\t"   \
  "add   %[p2], %[p1], %[s]\n\t"   \
  "add   %[p3], %[p2], %[s]\n\t"   \
  "add   %[p4], %[p3], %[s]\n\t"   \
  "add   %[p5], %[p4], %[s]\n\t"   \
  "add   %[p6], %[p5], %[s]\n\t"   \
  "add   %[p7], %[p6], %[s]\n\t"

// One four-register LD1 from each of rows P0 .. P3 (operand names), post-incremented by 64
// bytes, into v16-v19, v20-v23, v24-v27, v28-v31 as arrangement T ("4s", "16b").
#define EDGENMT_A64_LOAD_ROWS_4(P0, P1, P2, P3, T) \
  "ld1   {v16." T "-v19." T "}, [%[" P0            \
  "]], #64\n\t"                                    \
  "ld1   {v20." T "-v23." T "}, [%[" P1            \
  "]], #64\n\t"                                    \
  "ld1   {v24." T "-v27." T "}, [%[" P2            \
  "]], #64\n\t"                                    \
  "ld1   {v28." T "-v31." T "}, [%[" P3 "]], #64\n\t"

// Those 4 rows times x in X0 .. X3 (16 columns each), into accumulators A0 .. A3 (one a row,
// 4s): 16 instructions OP (FMLA, SDOT), column by column so that an accumulator's next one
// is 4 behind (the in-order A55's latency); OP0 for the first column (FMUL starts the sums).
#define EDGENMT_A64_MULTIPLY_ROWS_4(OP0, OP, T, X0, X1, X2, X3, A0, A1, A2, A3)                   \
  OP0 "  " A0 ".4s, " X0 "." T ", v16." T "\n\t" OP0 "  " A1 ".4s, " X0 "." T ", v20." T          \
      "\n\t" OP0 "  " A2 ".4s, " X0 "." T ", v24." T "\n\t" OP0 "  " A3 ".4s, " X0 "." T          \
      ", v28." T "\n\t" OP "  " A0 ".4s, " X1 "." T ", v17." T "\n\t" OP "  " A1 ".4s, " X1 "." T \
      ", v21." T "\n\t" OP "  " A2 ".4s, " X1 "." T ", v25." T "\n\t" OP "  " A3 ".4s, " X1 "." T \
      ", v29." T "\n\t" OP "  " A0 ".4s, " X2 "." T ", v18." T "\n\t" OP "  " A1 ".4s, " X2 "." T \
      ", v22." T "\n\t" OP "  " A2 ".4s, " X2 "." T ", v26." T "\n\t" OP "  " A3 ".4s, " X2 "." T \
      ", v30." T "\n\t" OP "  " A0 ".4s, " X3 "." T ", v19." T "\n\t" OP "  " A1 ".4s, " X3 "." T \
      ", v23." T "\n\t" OP "  " A2 ".4s, " X3 "." T ", v27." T "\n\t" OP "  " A3 ".4s, " X3 "." T \
      ", v31." T "\n\t"

#endif  // EDGENMT_KERNELS_ARM_NEON_A64_ROW_GROUP_ASM_H_
