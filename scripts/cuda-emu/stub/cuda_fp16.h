// Empty: cuda_emu.h provides what the generated sources use from <cuda_fp16.h>.
