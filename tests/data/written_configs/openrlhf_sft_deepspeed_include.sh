# Written for this test: an OpenRLHF SFT launch in the form of OpenRLHF's own examples/scripts/train_sft_llama.sh
# (OpenRLHF/OpenRLHF, Apache-2.0), started by DeepSpeed's launcher with --include (deepspeed/launcher/runner.py),
# with the launcher and batch flags of xiusic/Rubric-RM@1ed5c4b4 (licence not stated), less its paths, data and logging.
deepspeed --include localhost:0,1,2,3,4,5,6,7 --module openrlhf.cli.train_sft \
   --save_path ./checkpoint/qwen-14b-sft \
   --save_steps -1 \
   --logging_steps 1 \
   --eval_steps -1 \
   --train_batch_size 128 \
   --micro_train_batch_size 1 \
   --pretrain Qwen/Qwen2.5-14B-Instruct \
   --bf16 \
   --max_epochs 1 \
   --max_len 8192 \
   --zero_stage 3 \
   --learning_rate 5e-7 \
   --apply_chat_template \
   --flash_attn \
   --gradient_checkpointing \
   --packing_samples \
   --adam_offload
