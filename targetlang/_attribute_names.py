"""The names of the built-in kinds' attributes, by the Python type of their values.

They type ``Target.__getitem__`` (``t["mcpu"]`` is a ``str``, ``t["num-cores"]`` an ``int``);
tests/test_target.py checks them against the registries of TVM v0.22 and 0.27. Only the type
checker reads this module.
"""

from typing import Literal

StringAttribute = Literal[
    "arch",
    "device",
    "device_name",
    "device_type",
    "driver_name",
    "jit",
    "mabi",
    "march",
    "mcpu",
    "mfloat-abi",
    "model",
    "mtriple",
]

IntAttribute = Literal[
    "constants-byte-alignment",
    "driver_version",
    "from_device",
    "image_base_address_alignment",
    "l2_cache_size_bytes",
    "max_block_size_x",
    "max_block_size_y",
    "max_block_size_z",
    "max_function_args",
    "max_num_threads",
    "max_per_stage_descriptor_storage_buffer",
    "max_psum_size_per_partition",
    "max_push_constants_size",
    "max_sbuf_size_per_partition",
    "max_shared_memory_per_block",
    "max_spirv_version",
    "max_storage_buffer_range",
    "max_threads_per_block",
    "max_uniform_buffer_range",
    "num-cores",
    "opt-level",
    "partition_size",
    "registers_per_block",
    "supported_subgroup_operations",
    "target_device_type",
    "texture_depth_limit",
    "texture_spatial_limit",
    "thread_warp_size",
    "vector-width",
    "vtcm-capacity",
    "vulkan_api_version",
    "workspace-byte-alignment",
]

BoolAttribute = Literal[
    "fast-math",
    "fast-math-arcp",
    "fast-math-contract",
    "fast-math-ninf",
    "fast-math-nnan",
    "fast-math-nsz",
    "fast-math-reassoc",
    "supports_16bit_buffer",
    "supports_8bit_buffer",
    "supports_cooperative_matrix",
    "supports_dedicated_allocation",
    "supports_float16",
    "supports_float32",
    "supports_float64",
    "supports_int16",
    "supports_int32",
    "supports_int64",
    "supports_int8",
    "supports_integer_dot_product",
    "supports_push_descriptor",
    "supports_storage_buffer_storage_class",
    "supports_subgroups",
]

StringArrayAttribute = Literal["cl-opt", "libs", "llvm-options", "mattr"]

TargetArrayAttribute = Literal["devices"]
