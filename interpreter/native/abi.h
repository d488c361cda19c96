/* The plain C interface between the host (runtime::Game) and a game's generated native code.
   A generated module exports one function, keli_native_module(), returning a table of entry
   points. It keeps no global state: everything a call needs lives in the caller's keli_ctx, so
   several games and threads may use one module at once. Versioned: the host refuses a module
   whose abi_version or program_hash differs from its own. */
#ifndef KELI_NATIVE_ABI_H
#define KELI_NATIVE_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KELI_NATIVE_ABI_VERSION 6
#define KELI_NATIVE_ENTRY "keli_native_module"

/* What went wrong in generated code; the host words the message (runtime/messages.hpp) at the
   node's source position, as the interpreter does. a, b, c: the values the message names. */
enum keli_fault_kind {
  KELI_FAULT_NONE = 0,
  KELI_FAULT_INDEX,        /* a = dimension, b = index minus the dimension's low bound */
  KELI_FAULT_REGION,       /* b = region number */
  KELI_FAULT_POSITION,     /* b = position, c = region size */
  KELI_FAULT_NOT_ON_TRACK, /* b = site */
  KELI_FAULT_ROLL,         /* b = die, c = dice thrown */
  KELI_FAULT_ARITH,        /* a = keli::lang::Fault */
  KELI_FAULT_TOO_LARGE,    /* b = value */
  KELI_FAULT_SEAT,         /* b = seat */
  KELI_FAULT_EMPTY,        /* min or max over nothing (the node says which) */
  KELI_FAULT_RANGE,        /* b = low, c = high */
  KELI_FAULT_LOOP,         /* a while loop ran too long */
  KELI_FAULT_CALL_DEPTH,
  KELI_FAULT_EVENT_DEPTH,
  KELI_FAULT_NOTE,       /* `fail`: the node's note */
  KELI_FAULT_BUILD_ONLY, /* a board-building statement during play (the node says which) */
  KELI_FAULT_MOVE_TRIES, /* a = rule: listing its moves tried more than kMaxMoveTries values */
  KELI_FAULT_BUDGET,     /* the step's work budget ran out at the node (ctx->work_left below 0) */
  KELI_FAULT_DISTINCT,   /* a = rule: a `distinct by` parameter met more than kMaxDistinctKeys keys */
  KELI_FAULT_HISTORY,    /* `repetitions` read after the position history overflowed */
  KELI_FAULT_POINTS,     /* b = a seat's points, outside -limit..limit (`limit points`) */
  KELI_FAULT_COLLECTION  /* a = keli::lang::CollFault, b = the value or position, c = values held */
};

typedef struct keli_fault {
  int32_t node;
  int32_t kind;
  int64_t a, b, c;
} keli_fault;

/* A growable array the host owns: generated code appends, calling grow when full. */
typedef struct keli_buffer {
  void* data;
  int32_t size, cap;
} keli_buffer;

/* A legal move, laid out as runtime::Move (the host checks the layout). */
typedef struct keli_move {
  int16_t rule;
  uint8_t nargs;
  int32_t args[4];
} keli_move;

typedef struct keli_ctx keli_ctx;
struct keli_ctx {
  int64_t* locals;     /* module->locals slots, owned by the host */
  const int32_t* roll; /* the current throw (chance bodies) */
  int32_t nroll;
  int32_t depth;     /* nested calls / events */
  int64_t work_left; /* units of work the step may still do; the host sets it at every entry */
  keli_buffer moves; /* keli_move */
  keli_buffer notes; /* int32_t note ids */
  void (*grow)(keli_ctx* ctx, keli_buffer* buffer);
  void* host;
  keli_fault fault; /* set when an entry point returns nonzero */
  const void* past; /* the positions before the state's (keli::lang::PastView), for `repetitions` */
  /* While moves are listed in a game whose guards write the state: each slot written, with its
     value before (int32_t pairs), so that each guard starts from the position and leaves it. */
  keli_buffer undo;
  int32_t logging;
};

typedef struct keli_module {
  uint32_t abi_version;
  const char* program_hash; /* hex digest of the generated source (without this table) */
  int32_t locals;           /* local slots a context needs */
  /* Each returns 0, or 1 after setting ctx->fault. */
  int (*call)(keli_ctx* ctx, int32_t* state, int32_t callable, const int64_t* args, int32_t nargs, int64_t* out);
  int (*legal)(keli_ctx* ctx, int32_t* state); /* appends to ctx->moves; no otherwise rule */
  int (*apply)(keli_ctx* ctx, int32_t* state, const keli_move* move);
  int (*apply_roll)(keli_ctx* ctx, int32_t* state); /* the throw in ctx->roll */
} keli_module;

typedef const keli_module* (*keli_native_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
