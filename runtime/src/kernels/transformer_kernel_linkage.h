// How the kernel tables refer to the Transformer's kernels. In a library built without the
// Transformer (CMake EDGENMT_TRANSFORMER=OFF: the Cortex-M presets) those kernels are not in the
// library but in edgenmt_transformer_objects with the Transformer's layers, and the library's
// files see them declared weak (runtime/CMakeLists.txt defines EDGENMT_TRANSFORMER_KERNELS_WEAK
// for them alone): an RNN firmware links none of them and its tables hold them absent (nullptr,
// like any operation a backend lacks), while a firmware that links the Transformer's objects
// gets every entry. Everywhere else the declarations are ordinary ones.
#ifndef EDGENMT_KERNELS_TRANSFORMER_KERNEL_LINKAGE_H_
#define EDGENMT_KERNELS_TRANSFORMER_KERNEL_LINKAGE_H_

#if defined(EDGENMT_TRANSFORMER_KERNELS_WEAK)
#define EDGENMT_TRANSFORMER_KERNEL __attribute__((weak))
#else
#define EDGENMT_TRANSFORMER_KERNEL
#endif

#endif  // EDGENMT_KERNELS_TRANSFORMER_KERNEL_LINKAGE_H_
