/* The C interface between dlsize and its CUDA backend, a module (dlsize-cuda.so) that dlsize
 * loads with dlopen so that one dlsize binary runs with and without GPUs. The module exports
 * one function, DLSIZE_CUDA_ENTRY, which returns a table of function pointers; dlsize refuses
 * a table whose abi_version differs from DLSIZE_CUDA_ABI_VERSION. No CUDA header is needed to
 * include this one. docs/gpu.md describes the calls a training run makes.
 *
 * Errors: every function that can fail returns a dlsize_cuda_code and fills *status (code and a
 * message that names the failed call, its file:line and its arguments). No function throws or
 * aborts across this boundary.
 *
 * Ownership: create() returns a trainer that destroy() frees; the model and options passed to
 * create() are copied. Host bytes passed to stage_sample() are copied before it returns.
 *
 * Version 2: stage_sample() takes a piece of a sample at an offset (the pieces of one sample in
 * any order, as a reader's requests complete), and the sample's whole length.
 *
 * Version 3: step() takes flags (DLSIZE_CUDA_STEP_UPDATE, DLSIZE_CUDA_STEP_TIME_OPS) and its
 * result the GPU time per layer kind of a step timed so.
 *
 * Threads: probe() and nccl_unique_id() from any thread. For one trainer: step() from one
 * thread at a time; acquire_slot(), stage_sample() and submit_slot() from any threads (stage
 * distinct indices of a slot concurrently), also while step() runs on another slot; destroy()
 * alone. Batches go through the slots in order: batch k uses slot k % slots, acquire_slot()
 * waits until the step that used the slot before has started on it, and step() takes the
 * batches in the order they were submitted. */
#ifndef DLSIZE_CUDA_ABI_H
#define DLSIZE_CUDA_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLSIZE_CUDA_ABI_VERSION 3u
#define DLSIZE_CUDA_ENTRY "dlsize_cuda_module"
#define DLSIZE_CUDA_MODULE_FILE "dlsize-cuda.so"
#define DLSIZE_CUDA_NCCL_ID_BYTES 128
#define DLSIZE_CUDA_MAX_DEVICES 16
#define DLSIZE_CUDA_OP_KINDS 10 /* the values of dlsize_cuda_op */

enum dlsize_cuda_code {
  DLSIZE_CUDA_OK = 0,
  DLSIZE_CUDA_FAILED = 1,       /* a CUDA, cuDNN, cuBLAS or NCCL call failed while running */
  DLSIZE_CUDA_NO_DRIVER = 2,    /* no NVIDIA driver, or one too old for the module's CUDA */
  DLSIZE_CUDA_NO_DEVICE = 3,    /* a driver but no device, or not the device asked for */
  DLSIZE_CUDA_BAD_ARGUMENT = 4, /* the caller's mistake: a bad model, option or call order */
  DLSIZE_CUDA_OUT_OF_MEMORY = 5 /* the model does not fit the device at this batch size */
};

typedef struct dlsize_cuda_status {
  int32_t code;
  char message[1024];
} dlsize_cuda_status;

typedef struct dlsize_cuda_device_info {
  char name[256];
  char pci_bus_id[32]; /* "0000:3b:00.0", for NVML */
  uint64_t memory_bytes;
  int32_t cc_major, cc_minor;
  int32_t multiprocessors;
} dlsize_cuda_device_info;

typedef struct dlsize_cuda_probe_result {
  int32_t driver_version;  /* 13000 for 13.0; 0 without a driver */
  int32_t runtime_version; /* the CUDA runtime linked into the module */
  int32_t device_count;
  int32_t cublas_version;
  int32_t nccl_version;
  int32_t reserved;
  uint64_t cudnn_version;
  dlsize_cuda_device_info devices[DLSIZE_CUDA_MAX_DEVICES];
} dlsize_cuda_probe_result;

/* Layer kinds, in the order of model::op. */
enum dlsize_cuda_op {
  DLSIZE_CUDA_CONV = 0,
  DLSIZE_CUDA_CONV_TRANSPOSE = 1,
  DLSIZE_CUDA_BATCH_NORM = 2,
  DLSIZE_CUDA_INSTANCE_NORM = 3,
  DLSIZE_CUDA_RELU = 4,
  DLSIZE_CUDA_MAX_POOL = 5,
  DLSIZE_CUDA_GLOBAL_AVG_POOL = 6,
  DLSIZE_CUDA_FC = 7,
  DLSIZE_CUDA_ADD = 8,
  DLSIZE_CUDA_CONCAT = 9
};

/* One layer with its shapes, as the core inferred them; the module checks them again. */
typedef struct dlsize_cuda_layer {
  int32_t op;
  int32_t input; /* producing layer's index; -1: the model input */
  int32_t other; /* add, concat: second input's index; -1 otherwise */
  int32_t bias;  /* conv, conv_transpose, fc: 1 with a bias */
  uint64_t filters, kernel, stride, pad, dilation;
  uint32_t rank; /* spatial dimensions, 2 or 3 */
  uint32_t reserved;
  uint64_t in_channels, in_spatial[3];
  uint64_t out_channels, out_spatial[3];
  uint64_t params;
} dlsize_cuda_layer;

typedef struct dlsize_cuda_model {
  const dlsize_cuda_layer* layers;
  uint32_t layer_count;
  uint32_t rank; /* of the input: 2 (H, W) or 3 (D, H, W) */
  uint64_t input_channels;
  uint64_t input_spatial[3];
  uint64_t params;  /* total, as the core counted it */
  uint64_t classes; /* softmax cross-entropy over the last layer's channels */
} dlsize_cuda_model;

enum dlsize_cuda_precision {
  DLSIZE_CUDA_FP16 = 0, /* half activations, fp32 master weights, tensor cores, loss scaling */
  DLSIZE_CUDA_TF32 = 1, /* fp32 tensors, TF32 tensor-core math */
  DLSIZE_CUDA_FP32 = 2  /* fp32 without TF32: for gradient checks */
};

enum dlsize_cuda_algorithms {
  DLSIZE_CUDA_ALGO_HEURISTIC = 0, /* cuDNN's first heuristic choice that fits (_v7 getters) */
  DLSIZE_CUDA_ALGO_SEARCH = 1     /* time every algorithm once at creation (Find...Ex) */
};

typedef struct dlsize_cuda_trainer_options {
  uint32_t struct_size; /* sizeof(dlsize_cuda_trainer_options) */
  int32_t device;       /* CUDA device index: the rank's local rank */
  uint32_t batch_size;
  int32_t precision;         /* dlsize_cuda_precision */
  int32_t algorithms;        /* dlsize_cuda_algorithms */
  uint32_t slots;            /* pinned staging slots: the pipeline's prefetch depth, at least 1 */
  uint64_t sample_bytes_max; /* bytes staged per sample; longer samples are cut */
  double learning_rate;      /* SGD; 0: 0.1 x batch / 256 */
  double momentum;
  double weight_decay;
  uint64_t seed;                /* initial weights, crops and flips, synthetic data */
  uint64_t bucket_bytes;        /* gradient allreduce bucket size; 0: 25 MiB */
  uint64_t workspace_bytes_max; /* cuDNN workspace per call at most; 0: 1 GiB */
} dlsize_cuda_trainer_options;

typedef struct dlsize_cuda_trainer_info {
  char device_name[256];
  char pci_bus_id[32];
  uint64_t params;
  uint64_t activation_bytes; /* activations and their gradients */
  uint64_t weight_bytes;     /* weights, master copies, gradients, momentum */
  uint64_t workspace_bytes;
  uint64_t staging_bytes; /* pinned host memory of all slots */
  uint64_t device_memory_used;
  uint32_t slots;
  uint32_t buckets; /* gradient allreduce buckets (0 without NCCL) */
} dlsize_cuda_trainer_info;

/* step() flags. */
#define DLSIZE_CUDA_STEP_UPDATE 1   /* update the weights (without it: loss and gradients only) */
#define DLSIZE_CUDA_STEP_TIME_OPS 2 /* an event pair around every layer: fills op_ms */

typedef struct dlsize_cuda_step_result {
  double loss;          /* mean softmax cross-entropy of the batch, before the update */
  double busy_ms;       /* GPU time of the step, first to last kernel (CUDA events) */
  double preprocess_ms; /* uint8 bytes to the input tensor */
  double forward_ms;
  double backward_ms; /* until every gradient is reduced */
  double optimizer_ms;
  double loss_scale; /* in effect for this step (1 without fp16) */
  int32_t skipped;   /* 1: gradients overflowed; no update, the loss scale was halved */
  int32_t reserved;
  /* With DLSIZE_CUDA_STEP_TIME_OPS: GPU ms per layer kind (index: dlsize_cuda_op), forward and
   * backward together; the loss, the allreduce's wait and the update are not in it. Else 0. */
  double op_ms[DLSIZE_CUDA_OP_KINDS];
} dlsize_cuda_step_result;

typedef struct dlsize_cuda_trainer dlsize_cuda_trainer;

typedef struct dlsize_cuda_api {
  uint32_t abi_version;
  uint32_t struct_size;
  const char* build; /* "CUDA 13.0, cuDNN 9.19.0, cuBLAS 13.1.0, NCCL 2.28.9, archs ..." */

  int32_t (*probe)(dlsize_cuda_probe_result* out, dlsize_cuda_status* st);
  int32_t (*create)(const dlsize_cuda_model* model, const dlsize_cuda_trainer_options* opt,
                    dlsize_cuda_trainer** out, dlsize_cuda_status* st);
  void (*destroy)(dlsize_cuda_trainer* t);
  int32_t (*info)(dlsize_cuda_trainer* t, dlsize_cuda_trainer_info* out, dlsize_cuda_status* st);

  /* Loading a batch: acquire_slot, stage_sample for each piece of each sample, submit_slot.
   * stage_sample copies bytes [offset, offset + length) of sample `index` (whose whole length is
   * sample_length) into the slot, as far as sample_bytes_max reaches; pieces past it are taken
   * and ignored. The pieces of one sample come from one thread at a time. */
  int32_t (*acquire_slot)(dlsize_cuda_trainer* t, uint32_t slot, dlsize_cuda_status* st);
  int32_t (*stage_sample)(dlsize_cuda_trainer* t, uint32_t slot, uint32_t index, uint64_t offset,
                          const void* bytes, uint64_t length, uint64_t sample_length,
                          dlsize_cuda_status* st);
  int32_t (*submit_slot)(dlsize_cuda_trainer* t, uint32_t slot, uint32_t samples,
                         dlsize_cuda_status* st);
  /* Fills a slot with random bytes on the device and keeps it: step() may use it again and
   * again (calibration, tests), without storage or copies. */
  int32_t (*fill_synthetic)(dlsize_cuda_trainer* t, uint32_t slot, uint64_t seed,
                            dlsize_cuda_status* st);
  /* One training step on the slot's batch; flags without DLSIZE_CUDA_STEP_UPDATE leave the
   * weights alone (tests). Returns when the step's kernels have finished. */
  int32_t (*step)(dlsize_cuda_trainer* t, uint32_t slot, int32_t flags,
                  dlsize_cuda_step_result* out, dlsize_cuda_status* st);

  /* Data parallel: rank 0 makes the id, every rank gets its bytes (MPI_Bcast), then each
   * calls nccl_init on its trainer; steps then allreduce gradients in buckets. */
  int32_t (*nccl_unique_id)(uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], dlsize_cuda_status* st);
  int32_t (*nccl_init)(dlsize_cuda_trainer* t, int32_t rank, int32_t nranks,
                       const uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], dlsize_cuda_status* st);

  /* Tests: every parameter as fp32, in layer order (weights then bias; scale then shift), and
   * the gradients of the last step (unscaled, averaged over ranks). */
  int32_t (*read_params)(dlsize_cuda_trainer* t, float* out, uint64_t count,
                         dlsize_cuda_status* st);
  int32_t (*write_params)(dlsize_cuda_trainer* t, const float* in, uint64_t count,
                          dlsize_cuda_status* st);
  int32_t (*read_grads)(dlsize_cuda_trainer* t, float* out, uint64_t count, dlsize_cuda_status* st);
} dlsize_cuda_api;

typedef const dlsize_cuda_api* (*dlsize_cuda_entry_fn)(void);

/* A module's table, in the struct's order: its build text, then the functions of these names it
 * defines (the real module and the tests' fake alike). */
#define DLSIZE_CUDA_API_TABLE(build_text)                                                          \
  {                                                                                                \
    DLSIZE_CUDA_ABI_VERSION, sizeof(dlsize_cuda_api), (build_text), probe, create, destroy, info,  \
        acquire_slot, stage_sample, submit_slot, fill_synthetic, step, nccl_unique_id, nccl_init,  \
        read_params, write_params, read_grads                                                      \
  }

#ifdef __cplusplus
}
#endif

#endif
