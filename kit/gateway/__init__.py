"""The gateway: the only path from workload processes to the emulator."""
