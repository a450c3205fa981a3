"""What each `cross_entropy` scenario value means (engine/memory/loss.py models each one's tensors): the key's help text
in `python main.py schema`, docs/scenario-format.md and the window."""

CROSS_ENTROPY_MEANING = (
    "auto: the framework's loss; standard: fp32 logits of the whole batch; chunked: logits per chunk; fused: one kernel "
    "over the logits in their own dtype, as flash-attn's (llm-foundry's default); te: Transformer Engine's parallel "
    "cross-entropy, one kernel that writes the fp32 gradient in forward (Megatron cross_entropy_fusion_impl te); "
    "te-inplace: the same kernel before Transformer Engine v2.18, which writes the gradient over the logits in their "
    "own dtype; megatron-fused: Megatron's cross_entropy_loss_fusion, native impl (ms-swift's default), 10 bytes per "
    "logit in backward; fused-linear: lm_head fused with the loss, logits never made, as Liger/Unsloth/Cut-Cross-Entropy; "
    "no-upcast: the whole batch's cross-entropy in the compute dtype, no fp32 upcast (Qwen-1's remote code, older models); "
    "megatron-unfused: Megatron's own vocab-parallel cross-entropy without --cross-entropy-loss-fusion (fp32 copy of "
    "the logits, then max, subtraction, exp, sum and division as separate kernels; the only loss of Megatron-LM before "
    "June 2024), 52 bytes per logit moved forward and backward"
)
