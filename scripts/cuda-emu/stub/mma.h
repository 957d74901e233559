// Empty: cuda_emu.h provides what the generated sources use from <mma.h>.
