// Empty: cuda_emu.h provides what the generated sources use from <cuda_bf16.h>.
