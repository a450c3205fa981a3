<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Actions</name>
    <message>
        <location filename="../app.py" line="60"/>
        <source>%1 could not be estimated: %2 The default scenario is shown.</source>
        <translation>无法估算 %1：%2 现显示默认场景。</translation>
    </message>
    <message>
        <location filename="../app.py" line="64"/>
        <source>%1 could not be estimated (%2); the default scenario is shown.</source>
        <translation>无法估算 %1（%2）；现显示默认场景。</translation>
    </message>
    <message>
        <location filename="../app.py" line="106"/>
        <source>No font with Chinese characters was found, so the window stays in English. Install e.g. Noto Sans CJK and switch again.</source>
        <translation>未找到包含中文字符的字体，因此界面仍保持英文。请安装 Noto Sans CJK 等字体后再切换。</translation>
    </message>
    <message>
        <location filename="../app.py" line="196"/>
        <location filename="../file_actions.py" line="100"/>
        <location filename="../library_actions.py" line="28"/>
        <location filename="../library_actions.py" line="32"/>
        <source>Cannot open this scenario</source>
        <translation>无法打开此场景</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="28"/>
        <source>Dense bf16 peak (optional)</source>
        <translation>稠密 bf16 峰值（可选）</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="29"/>
        <source>Dense fp8 peak (optional)</source>
        <translation>稠密 fp8 峰值（可选）</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="30"/>
        <source>Memory bandwidth (optional)</source>
        <translation>显存带宽（可选）</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="31"/>
        <source>GPU-to-GPU link, one direction (optional)</source>
        <translation>GPU 间互联单向带宽（可选）</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="56"/>
        <location filename="../file_actions.py" line="191"/>
        <source>Custom GPU</source>
        <translation>自定义 GPU</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="57"/>
        <source>My GPU</source>
        <translation>我的 GPU</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="64"/>
        <location filename="../dialogs.py" line="184"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="65"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="72"/>
        <source>not given</source>
        <translation>未填写</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="88"/>
        <source>Import a Hugging Face config.json</source>
        <translation>导入 Hugging Face config.json</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="196"/>
        <source>Delete scenarios</source>
        <translation>删除场景</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="65"/>
        <location filename="../dialogs.py" line="98"/>
        <source>Cannot import this file</source>
        <translation>无法导入此文件</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="99"/>
        <location filename="../config_actions.py" line="107"/>
        <location filename="../config_actions.py" line="117"/>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="109"/>
        <source>Export launch config</source>
        <translation>导出启动配置</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="103"/>
        <source>Name this model</source>
        <translation>为此模型命名</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="104"/>
        <source>Name in the model list:</source>
        <translation>在模型列表中的名称：</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="127"/>
        <source>Add a folder with models</source>
        <translation>添加包含模型的文件夹</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="141"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location filename="../dialogs.py" line="142"/>
        <source>Save the changes to &quot;%s&quot; first?</source>
        <translation>先保存对“%s”的更改吗？</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="90"/>
        <source>Open a scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="155"/>
        <source>%1 could not be written (%2); nothing was changed on disk.</source>
        <translation>无法写入 %1（%2）；磁盘上的内容未被更改。</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="163"/>
        <source>Save scenario as</source>
        <translation>场景另存为</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="60"/>
        <location filename="../file_actions.py" line="180"/>
        <source>Import %s</source>
        <translation>导入 %s</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="217"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="119"/>
        <location filename="../config_actions.py" line="122"/>
        <location filename="../file_actions.py" line="229"/>
        <location filename="../file_actions.py" line="241"/>
        <source>Exported %s</source>
        <translation>已导出 %s</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="215"/>
        <location filename="../file_actions.py" line="268"/>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="290"/>
        <source>How the numbers are computed</source>
        <translation>数值是如何计算的</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="297"/>
        <source>&lt;b&gt;LLM Memory Planner&lt;/b&gt; %(version)s&lt;br&gt;Will this training run fit on my GPUs, and if not, what do I change?&lt;br&gt;Numbers are checked against traced training steps; see docs/accuracy.md.&lt;br&gt;Python %(python)s · Qt %(qt)s</source>
        <translation>&lt;b&gt;LLM Memory Planner&lt;/b&gt; %(version)s&lt;br&gt;这次训练放得进我的 GPU 吗？放不下该改什么？&lt;br&gt;数字已与实测训练步核对；见 docs/accuracy.md。&lt;br&gt;Python %(python)s · Qt %(qt)s</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="306"/>
        <source>About LLM Memory Planner</source>
        <translation>关于 LLM Memory Planner</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="309"/>
        <source>
&lt;h3&gt;Per GPU, at each moment of a training step&lt;/h3&gt;
&lt;p&gt;&lt;b&gt;Model states&lt;/b&gt;: weights, gradients, fp32 master copy and optimizer states, each
parameters &amp;times; bytes of its dtype, divided by ZeRO/FSDP, TP, PP and EP shards.
AdamW keeps 2 states; 8-bit AdamW 2 bytes; SGD with momentum 1 state.&lt;/p&gt;
&lt;p&gt;&lt;b&gt;Activations&lt;/b&gt;: for every decoder layer, the tensors autograd saves for backward
(RMSNorm fp32 inputs, Q/K/V, attention output, SwiGLU intermediates, linear inputs
when their weights train, bf16 weight copies under autocast), times micro-batches in flight.
Eager attention adds the b&amp;middot;a&amp;middot;s&amp;sup2; probabilities; checkpointing keeps only layer inputs and
recomputes one layer in backward.&lt;/p&gt;
&lt;p&gt;&lt;b&gt;Logits&lt;/b&gt;: b&amp;middot;s&amp;middot;V in the compute dtype plus the loss&apos;s fp32 copies (the spike at the
start of backward is three fp32 b&amp;middot;s&amp;middot;V tensors).&lt;/p&gt;
&lt;p&gt;&lt;b&gt;Phases&lt;/b&gt;: forward, backward and optimizer step are summed separately; the peak is the largest.
Foreach AdamW needs one state-sized temporary in the step.&lt;/p&gt;
&lt;p&gt;&lt;b&gt;On top&lt;/b&gt;: CUDA context (0.75 GiB), allocator gaps (cached remainders of the loss&apos;s b&amp;middot;s&amp;middot;V tensors)
and the safety reserve (the seeds&apos; table: 10%, 15% beyond 8K tokens).&lt;/p&gt;
&lt;p&gt;Hover any slice, bar or table row to see its formula and inputs.&lt;/p&gt;
&lt;h3&gt;Beyond the memory of one training step&lt;/h3&gt;
&lt;p&gt;&lt;b&gt;Post-training&lt;/b&gt; (an objective other than supervised fine-tuning): one bar per phase (generation,
scoring, training, weight sync); the largest phase is the estimate.
&lt;b&gt;Serve mode&lt;/b&gt;: the inference engine&apos;s own start-up accounting per GPU (weights as deployed, KV cache,
the profile run&apos;s activations, CUDA graphs) and how many users at which context fit.
&lt;b&gt;Time and cost&lt;/b&gt;: the step&apos;s time split into its terms (matmuls and attention, memory-bound operations,
recomputation, communication not hidden behind compute, pipeline bubble, offload, optimizer step, waiting for
the host); tokens/s, MFU, time to train and cost follow from it.&lt;/p&gt;
</source>
        <translation>
&lt;h3&gt;每块 GPU 在一个训练步骤中各个时刻的显存&lt;/h3&gt;
&lt;p&gt;&lt;b&gt;模型状态&lt;/b&gt;：权重、梯度、fp32 主权重副本和优化器状态，每项都等于
参数量 &amp;times; 其数据类型的字节数，再除以 ZeRO/FSDP、TP、PP 和 EP 的分片数。
AdamW 保存 2 个状态；8-bit AdamW 共 2 字节；带动量的 SGD 保存 1 个状态。&lt;/p&gt;
&lt;p&gt;&lt;b&gt;激活值&lt;/b&gt;：每个解码器层中 autograd 为反向保存的张量
（RMSNorm 的 fp32 输入、Q/K/V、注意力输出、SwiGLU 中间结果、权重参与训练的线性层的输入、
autocast 下的 bf16 权重副本），再乘以同时在途的微批次数。
eager 注意力还要加上 b&amp;middot;a&amp;middot;s&amp;sup2; 的注意力概率；激活检查点（梯度检查点）只保留各层的输入，
并在反向时重算一层。&lt;/p&gt;
&lt;p&gt;&lt;b&gt;Logits&lt;/b&gt;：计算精度下的 b&amp;middot;s&amp;middot;V，加上损失函数的 fp32 副本（反向开始时的尖峰是
三个 fp32 b&amp;middot;s&amp;middot;V 张量）。&lt;/p&gt;
&lt;p&gt;&lt;b&gt;阶段&lt;/b&gt;：前向、反向和优化器步骤分别求和；峰值取其中最大者。
foreach AdamW 在优化器步骤中需要一个与状态同样大小的临时张量。&lt;/p&gt;
&lt;p&gt;&lt;b&gt;额外开销&lt;/b&gt;：CUDA 上下文（0.75 GiB）、分配器空隙（损失计算中 b&amp;middot;s&amp;middot;V 张量被缓存后剩下的部分）
以及安全余量（参考资料中的表格：10%，超过 8K tokens 时为 15%）。&lt;/p&gt;
&lt;p&gt;将鼠标悬停在任意扇区、条形或表格行上，即可查看其公式和输入。&lt;/p&gt;
&lt;h3&gt;一个训练步骤的显存之外&lt;/h3&gt;
&lt;p&gt;&lt;b&gt;后训练&lt;/b&gt;（监督微调以外的训练目标）：每个阶段一根条形（生成、打分、训练、权重同步）；
最大的阶段即为估算结果。
&lt;b&gt;推理服务模式&lt;/b&gt;：推理引擎自身在启动时对每块 GPU 的显存核算（部署格式的权重、KV 缓存、
profile 运行的激活值、CUDA 图），以及在多长上下文下能同时容纳多少用户。
&lt;b&gt;时间与费用&lt;/b&gt;：一步的时间按各项拆分（矩阵乘法与注意力、访存受限操作、重算、未被计算掩盖的通信、
流水线气泡、卸载、优化器步骤、等待主机）；每秒 tokens 数、MFU、训练总时长和费用都由此得出。&lt;/p&gt;
</translation>
    </message>
    <message>
        <location filename="../names.py" line="20"/>
        <source>%(model)s on %(gpus)s</source>
        <translation>%(model)s，%(gpus)s</translation>
    </message>
    <message>
        <location filename="../library_actions.py" line="54"/>
        <source>Save as a new scenario</source>
        <translation>另存为新场景</translation>
    </message>
    <message>
        <location filename="../library_actions.py" line="55"/>
        <source>Save to the library</source>
        <translation>保存到场景库</translation>
    </message>
    <message>
        <location filename="../library_actions.py" line="65"/>
        <source>Changed in another window</source>
        <translation>已在其他窗口中更改</translation>
    </message>
    <message>
        <location filename="../library_actions.py" line="66"/>
        <source>&quot;%s&quot; was changed on disk since you opened it (another window?). Save your version as a copy, or overwrite the other version?</source>
        <translation>自你打开以来，“%s”已在磁盘上被更改（可能是另一个窗口？）。要将你的版本另存为副本，还是覆盖另一个版本？</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="154"/>
        <location filename="../library_actions.py" line="83"/>
        <location filename="../library_actions.py" line="86"/>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <location filename="../library_actions.py" line="95"/>
        <source>Saved to the library as %s</source>
        <translation>已保存到场景库，名为 %s</translation>
    </message>
    <message>
        <location filename="../library_actions.py" line="112"/>
        <source>Current: %s</source>
        <translation>当前：%s</translation>
    </message>
    <message>
        <location filename="../library_actions.py" line="126"/>
        <source>Before</source>
        <translation>修改前</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="123"/>
        <source>Import a training config?</source>
        <translation>导入训练配置？</translation>
    </message>
    <message>
        <location filename="../file_actions.py" line="124"/>
        <source>%1 is a %2 training config, not a scenario. Import its settings into the current set-up?</source>
        <translation>%1 是 %2 训练配置，不是场景文件。要把其中的设置导入当前配置吗？</translation>
    </message>
</context>
<context>
    <name>AppState</name>
    <message>
        <location filename="../state.py" line="180"/>
        <source>%(control)s was set from %(old)s to %(new)s: %(why)s</source>
        <translation>%(control)s 已从 %(old)s 改为 %(new)s：%(why)s</translation>
    </message>
</context>
<context>
    <name>BreakdownTable</name>
    <message>
        <location filename="../results.py" line="128"/>
        <source>Component</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <location filename="../results.py" line="128"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../results.py" line="128"/>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location filename="../results.py" line="129"/>
        <source>Lives in</source>
        <translation>所在阶段</translation>
    </message>
    <message>
        <location filename="../results.py" line="146"/>
        <source>GPU shown</source>
        <translation>显示的 GPU</translation>
    </message>
    <message>
        <location filename="../results.py" line="176"/>
        <source>GPUs of pipeline stage %d: %s</source>
        <translation>流水线阶段 %d 的 GPU：%s</translation>
    </message>
    <message>
        <location filename="../results.py" line="178"/>
        <source>The busiest GPUs: %s</source>
        <translation>占用最多的 GPU：%s</translation>
    </message>
    <message>
        <location filename="../results.py" line="179"/>
        <source> (fullest)</source>
        <translation>（最满）</translation>
    </message>
    <message>
        <location filename="../results.py" line="202"/>
        <source>on top of the peak</source>
        <translation>叠加在峰值之上</translation>
    </message>
    <message>
        <location filename="../results.py" line="218"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../results.py" line="218"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../results.py" line="218"/>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <location filename="../results.py" line="220"/>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <location filename="../results.py" line="231"/>
        <source>fits in host memory</source>
        <translation>主机内存够用</translation>
    </message>
    <message>
        <location filename="../results.py" line="231"/>
        <source>more than the host memory available</source>
        <translation>超出可用的主机内存</translation>
    </message>
    <message>
        <source>more than the host memory set</source>
        <translation type="vanished">超出设定的主机内存</translation>
    </message>
    <message>
        <location filename="../results.py" line="232"/>
        <source>host memory not set</source>
        <translation>未设置主机内存</translation>
    </message>
    <message>
        <location filename="../results.py" line="233"/>
        <source>loading the model %s</source>
        <translation>加载模型 %s</translation>
    </message>
    <message>
        <location filename="../results.py" line="238"/>
        <source>%1: not estimated</source>
        <translation>%1：未估算</translation>
    </message>
    <message>
        <location filename="../results.py" line="239"/>
        <source>reserved by PyTorch %s</source>
        <translation>PyTorch 预留 %s</translation>
    </message>
    <message>
        <location filename="../results.py" line="242"/>
        <source>process (as %1 shows it) %2</source>
        <translation>进程占用（%1 所示）%2</translation>
    </message>
    <message>
        <source>process (as nvidia-smi shows it) %s</source>
        <translation type="vanished">进程占用（nvidia-smi 所示）%s</translation>
    </message>
    <message>
        <location filename="../results.py" line="245"/>
        <source>CPU memory per node %s (%s)</source>
        <translation>每节点 CPU 内存 %s（%s）</translation>
    </message>
    <message>
        <location filename="../results.py" line="246"/>
        <source>Phase peaks: </source>
        <translation>各阶段峰值：</translation>
    </message>
</context>
<context>
    <name>BudgetBars</name>
    <message>
        <location filename="../charts.py" line="325"/>
        <source>capacity %s</source>
        <translation>容量 %s</translation>
    </message>
    <message>
        <location filename="../charts.py" line="323"/>
        <source>stage %d</source>
        <translation>阶段 %d</translation>
    </message>
    <message>
        <location filename="../charts.py" line="301"/>
        <source>left free by the engine</source>
        <translation>引擎留出的空闲</translation>
    </message>
    <message>
        <location filename="../charts.py" line="323"/>
        <source>each GPU</source>
        <translation>每块 GPU</translation>
    </message>
    <message>
        <location filename="../charts.py" line="326"/>
        <source>Used %(used)s of %(cap)s per GPU; hatched: left free by the engine</source>
        <translation>每个 GPU 已用 %(used)s / %(cap)s；斜线：引擎留出的空闲</translation>
    </message>
    <message>
        <location filename="../charts.py" line="327"/>
        <source>Used %(used)s of %(cap)s per GPU; hatched: safety reserve</source>
        <translation>每块 GPU 已用 %(used)s / %(cap)s；斜线部分：安全余量</translation>
    </message>
</context>
<context>
    <name>Charts</name>
    <message>
        <location filename="../charts.py" line="58"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>ComparePane</name>
    <message>
        <location filename="../compare_view.py" line="146"/>
        <source> (live: follows the editor)</source>
        <translation>（实时：跟随编辑器）</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <location filename="../compare_view.py" line="167"/>
        <source>Select 2 to 4 scenarios in the Library and press “Compare selected”, or “Compare with current” to set the editor&apos;s scenario beside them.</source>
        <translation>在场景库中选择 2 到 4 个场景并点击“对比所选”，或点击“与当前对比”，把编辑器中的场景放在它们旁边。</translation>
    </message>
    <message>
        <location filename="../compare_view.py" line="267"/>
        <source>Current: %s</source>
        <translation>当前：%s</translation>
    </message>
    <message>
        <location filename="../compare_view.py" line="329"/>
        <source>Peak allocated</source>
        <translation>已分配峰值</translation>
    </message>
    <message>
        <location filename="../compare_view.py" line="330"/>
        <source>Total with overheads</source>
        <translation>含额外开销的总计</translation>
    </message>
    <message>
        <location filename="../compare_view.py" line="331"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../compare_view.py" line="334"/>
        <source>CPU memory per node</source>
        <translation>每节点 CPU 内存</translation>
    </message>
    <message>
        <location filename="../compare_view.py" line="335"/>
        <source>not counted</source>
        <translation>未计入</translation>
    </message>
    <message>
        <location filename="../compare_view.py" line="362"/>
        <source>What differs</source>
        <translation>差异</translation>
    </message>
    <message>
        <location filename="../compare_ranges.py" line="28"/>
        <source>Time to first token, measured runs like this one (8 in 10)</source>
        <translation>首个 token 用时，与此类似的实测运行（每 10 次中 8 次）</translation>
    </message>
    <message>
        <location filename="../compare_ranges.py" line="29"/>
        <source>Tokens/s, measured runs like this one (8 in 10)</source>
        <translation>tokens/s，与此类似的实测运行（每 10 次中 8 次）</translation>
    </message>
    <message>
        <location filename="../compare_memory.py" line="49"/>
        <source>not at its peak (%1)</source>
        <translation>不在其峰值阶段（%1）</translation>
    </message>
</context>
<context>
    <name>DiagnosePanel</name>
    <message>
        <location filename="../diagnose_panel.py" line="44"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="45"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="46"/>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="60"/>
        <source>Open a run&apos;s record</source>
        <translation>打开一次运行的记录</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="61"/>
        <source>Run records (*.txt *.log *.pickle *.pkl *.json *.csv);;All files (*)</source>
        <translation>运行记录 (*.txt *.log *.pickle *.pkl *.json *.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="93"/>
        <source>one training step</source>
        <translation>一个训练步</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="109"/>
        <source>planned, allocated</source>
        <translation>计划：已分配</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="113"/>
        <source>planned, reserved</source>
        <translation>计划：已预留</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="117"/>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="134"/>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="140"/>
        <source>measured peak</source>
        <translation>实测峰值</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="154"/>
        <source>needed when it failed</source>
        <translation>出错时所需</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="167"/>
        <source>Paste an out-of-memory message here, or drop a file: the message, a memory snapshot (.pickle), a profiler memory timeline (.json), an nvidia-smi or W&amp;B CSV, a Megatron-LM training log.</source>
        <translation>在此粘贴显存不足（OOM）报错，或拖入文件：报错文本、显存快照（.pickle）、profiler 显存时间线（.json）、nvidia-smi 或 W&amp;B 的 CSV、Megatron-LM 训练日志。</translation>
    </message>
    <message>
        <source>Paste an out-of-memory message here, or drop a file: the message, a memory snapshot (.pickle), a profiler memory timeline (.json), an nvidia-smi or W&amp;B CSV.</source>
        <translation type="vanished">在此粘贴显存不足（OOM）报错，或拖入文件：报错文本、显存快照（.pickle）、profiler 显存时间线（.json）、nvidia-smi 或 W&amp;B 的 CSV。</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="170"/>
        <source>Diagnose</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="172"/>
        <source>Open a file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="174"/>
        <source>Nothing diagnosed yet.</source>
        <translation>尚未诊断。</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="179"/>
        <source>Apply the fix</source>
        <translation>应用此修复</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="182"/>
        <source>Calibrate this machine from the record</source>
        <translation>用此记录校准这台机器</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="185"/>
        <source>Time this plan by the run&apos;s step</source>
        <translation>按这次运行的每步时间校准本方案</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="251"/>
        <source>(read from %s)</source>
        <translation>（读自 %s）</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="284"/>
        <source>Out-of-memory message read (%s).</source>
        <translation>已读取显存不足报错（%s）。</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="286"/>
        <source>Memory record read (%s, %d events).</source>
        <translation>已读取显存记录（%s，%d 个事件）。</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="288"/>
        <source>GPU memory log read (%s, %d samples).</source>
        <translation>已读取 GPU 显存日志（%s，%d 个采样）。</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="329"/>
        <source>Calibrate the time from the run&apos;s log</source>
        <translation>用运行日志校准时间</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="356"/>
        <source>Calibrate memory from the run</source>
        <translation>根据运行结果校准显存</translation>
    </message>
    <message>
        <location filename="../diagnose_panel.py" line="365"/>
        <source>Apply the fix from the diagnosis</source>
        <translation>应用诊断给出的修复</translation>
    </message>
</context>
<context>
    <name>Explain</name>
    <message>
        <location filename="../explain.py" line="31"/>
        <source>%s of the peak</source>
        <translation>占峰值的 %s</translation>
    </message>
    <message>
        <location filename="../explain.py" line="36"/>
        <source>lives in: %(phase)s; largest at any moment: %(peak)s</source>
        <translation>所在阶段：%(phase)s；任一时刻的最大值：%(peak)s</translation>
    </message>
</context>
<context>
    <name>Fields</name>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="18"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="19"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="20"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="21"/>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="22"/>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="23"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="24"/>
        <source>Adapter rank (LoRA r)</source>
        <translation>适配器秩（LoRA r）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="25"/>
        <source>Adapted layers (targets)</source>
        <translation>适配的层（targets）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="26"/>
        <source>Layers with adapters (from the top)</source>
        <translation>带适配器的层数（从顶层起）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="27"/>
        <source>Frozen layers</source>
        <translation>冻结层数</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="28"/>
        <source>Frozen side</source>
        <translation>冻结哪一侧</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="29"/>
        <source>Freeze the token embeddings</source>
        <translation>冻结词嵌入</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="30"/>
        <source>Base weights (QLoRA bits)</source>
        <translation>基础权重（QLoRA 位数）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="31"/>
        <source>Double quantisation</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="32"/>
        <source>Frozen base weights (storage)</source>
        <translation>冻结的基础权重（存储格式）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="33"/>
        <source>Number format (precision)</source>
        <translation>数值格式（精度）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="34"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="35"/>
        <source>Sequences per GPU step (micro-batch)</source>
        <translation>每块 GPU 每步的序列数（微批次）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="36"/>
        <source>Tokens per sequence (sequence length)</source>
        <translation>每条序列的 token 数（序列长度）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="37"/>
        <source>Steps per update (gradient accumulation)</source>
        <translation>每次更新的步数（梯度累积）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="38"/>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="39"/>
        <source>Recompute layers</source>
        <translation>重算层数</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="40"/>
        <source>Recompute method</source>
        <translation>重算方式</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="41"/>
        <source>Attention kernel</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="42"/>
        <source>Tensor parallel (TP)</source>
        <translation>张量并行（TP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="43"/>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行（PP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="44"/>
        <source>Expert parallel (EP)</source>
        <translation>专家并行（EP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="45"/>
        <source>Context parallel (CP)</source>
        <translation>上下文并行（CP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="46"/>
        <source>Sequence parallelism</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="47"/>
        <location filename="../../engine/scenario/key_words.py" line="48"/>
        <source>Sharding (ZeRO / FSDP)</source>
        <translation>分片（ZeRO / FSDP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="49"/>
        <source>Offload (slow)</source>
        <translation>卸载（慢）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="50"/>
        <source>Optimizer share on the CPU</source>
        <translation>放到 CPU 上的优化器比例</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="51"/>
        <source>Estimator</source>
        <translation>估算方法</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="52"/>
        <source>Safety reserve</source>
        <translation>安全余量</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="53"/>
        <source>K factor</source>
        <translation>K 系数</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="54"/>
        <source>LoRA alpha</source>
        <translation>LoRA alpha</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="55"/>
        <source>Adapter number format</source>
        <translation>适配器数值格式</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="56"/>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="57"/>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="58"/>
        <source>Loss computation</source>
        <translation>损失计算</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="59"/>
        <source>Compile the model</source>
        <translation>编译模型</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="60"/>
        <source>Liger kernels</source>
        <translation>Liger 内核</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="61"/>
        <source>Activation offloading</source>
        <translation>激活卸载</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="62"/>
        <source>Optimizer in backward</source>
        <translation>反向传播中更新优化器</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="63"/>
        <source>Also fully train (modules_to_save)</source>
        <translation>同时完整训练（modules_to_save）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="64"/>
        <source>Distributed optimizer</source>
        <translation>分布式优化器</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="65"/>
        <source>Pipeline schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="66"/>
        <source>Virtual pipeline stages</source>
        <translation>虚拟流水线阶段</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="67"/>
        <source>Shard group (GPUs)</source>
        <translation>分片组（GPU 数）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="68"/>
        <source>Re-shard after forward</source>
        <translation>前向后重新分片</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="69"/>
        <source>FSDP version</source>
        <translation>FSDP 版本</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="70"/>
        <source>Loss parallel</source>
        <translation>损失并行</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="71"/>
        <source>LoRA dropout</source>
        <translation>LoRA dropout</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="80"/>
        <source>CPU memory per node</source>
        <translation>每节点 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="81"/>
        <source>Images per sequence (images per sample)</source>
        <translation>每个序列的图像数（每样本图像数）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="82"/>
        <source>Image side in pixels (image resolution)</source>
        <translation>图像边长像素（图像分辨率）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="83"/>
        <source>Image encoder (vision tower)</source>
        <translation>图像编码器（视觉塔）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="84"/>
        <source>Attention kernel variant</source>
        <translation>注意力内核版本</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="85"/>
        <source>MoE token dispatcher</source>
        <translation>MoE 词元分发器</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="86"/>
        <source>MoE all-to-all beside another micro-batch (moe_a2a_overlap)</source>
        <translation>MoE all-to-all 与另一微批次并行（moe_a2a_overlap）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="87"/>
        <source>MoE expert MLP as fused grouped ops (fused_expert_mlp)</source>
        <translation>MoE 专家 MLP 用融合分组算子（fused_expert_mlp）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="88"/>
        <source>FP8 scaling recipe</source>
        <translation>FP8 缩放方案</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="89"/>
        <source>FP8 amax reduced over tensor-parallel ranks only (tp_only_amax_red)</source>
        <translation>FP8 amax 仅在张量并行组内归约（tp_only_amax_red）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="91"/>
        <source>TP collectives overlapped with userbuffers (tp_comm_overlap)</source>
        <translation>张量并行集合通信用 userbuffers 与 GEMM 重叠（tp_comm_overlap）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="92"/>
        <source>Gradients reduced in FP32 (grad_reduce_fp32)</source>
        <translation>以 FP32 归约梯度（grad_reduce_fp32）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="93"/>
        <source>Tokens per packed sequence (packed_sequence_tokens)</source>
        <translation>每个打包序列的 token 数（packed_sequence_tokens）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="94"/>
        <source>CUDA graphs (captured parts)</source>
        <translation>CUDA 图（捕获的部分）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="95"/>
        <source>FP8 weight all-gather (FSDP2)</source>
        <translation>FP8 权重 all-gather（FSDP2）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="96"/>
        <source>Entropy bonus weight (entropy_coeff)</source>
        <translation>熵奖励权重（entropy_coeff）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="97"/>
        <source>Chosen answers&apos; NLL weight (rpo_alpha)</source>
        <translation>被选回答的 NLL 权重（rpo_alpha）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="98"/>
        <source>Bandwidth within a node</source>
        <translation>节点内带宽</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="99"/>
        <source>Bandwidth between nodes</source>
        <translation>节点间带宽</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="100"/>
        <source>Tokens to train</source>
        <translation>训练 token 总数</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="101"/>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="102"/>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="103"/>
        <source>Deadline</source>
        <translation>截止期限</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="104"/>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="105"/>
        <source>Sequence packing (packing)</source>
        <translation>序列打包（packing）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="106"/>
        <source>Tokens per micro-batch (max_tokens_per_micro_batch)</source>
        <translation>每个微批次的 token 数（max_tokens_per_micro_batch）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="107"/>
        <source>Megatron pipeline layout (pipeline_layout)</source>
        <translation>Megatron 流水线布局（pipeline_layout）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="108"/>
        <source>Measured step time</source>
        <translation>实测每步时间</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="109"/>
        <source>Objective (training objective)</source>
        <translation>目标（训练目标）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="110"/>
        <source>Reference (reference model)</source>
        <translation>参考（参考模型）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="111"/>
        <source>Reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="112"/>
        <source>Critic (value model)</source>
        <translation>评论家（价值模型）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="113"/>
        <source>Critic offloaded to CPU memory (critic_offload)</source>
        <translation>评论家卸载到 CPU 内存（critic_offload）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="114"/>
        <source>Critic&apos;s sequences (critic_packing)</source>
        <translation>评论家的序列（critic_packing）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="115"/>
        <source>Critic&apos;s tokens per micro-batch (critic_max_tokens_per_micro_batch)</source>
        <translation>评论家每个微批次的 token 数（critic_max_tokens_per_micro_batch）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="117"/>
        <source>Mean prompt without padding (prompt_len_mean)</source>
        <translation>去除填充后的平均提示长度（prompt_len_mean）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="118"/>
        <source>Tokens per prompt (prompt length)</source>
        <translation>每个提示的 token 数（提示长度）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="119"/>
        <source>Tokens per completion (completion length)</source>
        <translation>每个回答的 token 数（回答长度）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="120"/>
        <source>Longest completion (max_completion_len)</source>
        <translation>最长补全（max_completion_len）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="121"/>
        <source>Spread of a sequence&apos;s tokens (sequence_len_std)</source>
        <translation>序列词元数的标准差（sequence_len_std）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="122"/>
        <source>Completions per prompt (generations)</source>
        <translation>每个提示的回答数（生成数）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="123"/>
        <source>Generation engine (rollout engine)</source>
        <translation>生成引擎（rollout 引擎）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="124"/>
        <source>Engine placement</source>
        <translation>引擎放置</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="125"/>
        <source>GPUs of the engine (rollout GPUs)</source>
        <translation>引擎的 GPU（rollout GPU）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="126"/>
        <source>Engine tensor parallel (rollout TP)</source>
        <translation>引擎张量并行（rollout TP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="127"/>
        <source>Engine&apos;s share of each GPU (gpu_memory_utilization)</source>
        <translation>引擎占每块 GPU 的比例（gpu_memory_utilization）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="129"/>
        <source>Engine while training (sleep mode)</source>
        <translation>训练期间的引擎（休眠模式）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="130"/>
        <source>Engine KV cache format</source>
        <translation>引擎 KV 缓存格式</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="131"/>
        <source>Sequences generated at once (max_num_seqs)</source>
        <translation>同时生成的序列数（max_num_seqs）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="132"/>
        <source>Longest request (max_model_len)</source>
        <translation>最长请求（max_model_len）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="133"/>
        <source>vLLM release (start-up accounting)</source>
        <translation>vLLM 版本（启动时的显存核算）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="134"/>
        <source>Engine shares the trainer&apos;s weights</source>
        <translation>引擎与训练器共用权重</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="135"/>
        <source>Engine without CUDA graphs (enforce_eager)</source>
        <translation>引擎不使用 CUDA 图（enforce_eager）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="136"/>
        <source>Engine as vLLM&apos;s AsyncLLM (async_engine)</source>
        <translation>引擎以 vLLM 的 AsyncLLM 运行（async_engine）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="137"/>
        <source>Ulysses sequence parallel size</source>
        <translation>Ulysses 序列并行大小</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="142"/>
        <source>full fine-tune</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="142"/>
        <source>frozen layers</source>
        <translation>冻结部分层</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="146"/>
        <source>per-op selective</source>
        <translation>逐算子选择性</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="150"/>
        <source>eager (stores b·a·s² scores)</source>
        <translation>eager（保存 b·a·s² 个注意力分数）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="151"/>
        <location filename="../../engine/scenario/key_words.py" line="235"/>
        <source>the framework&apos;s default (auto)</source>
        <translation>框架的默认值（自动）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="152"/>
        <source>the trainer&apos;s own generate (none)</source>
        <translation>训练器自带的 generate（无）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="159"/>
        <source>frozen, back-propagated</source>
        <translation>冻结，仍反向传播</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="260"/>
        <source>pre-training</source>
        <translation>预训练</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="267"/>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>supervised fine-tuning (SFT)</source>
        <translation type="vanished">监督微调（SFT）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="179"/>
        <source>reward model on pairs</source>
        <translation>在回答对上训练奖励模型</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="180"/>
        <source>PPO (with a critic)</source>
        <translation>PPO（带评论家）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="181"/>
        <source>online DPO</source>
        <translation>在线 DPO</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="182"/>
        <source>a copy of the policy</source>
        <translation>策略模型的一份副本</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="183"/>
        <source>as the policy&apos;s offload</source>
        <translation>与策略模型的卸载相同</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="191"/>
        <source>as the policy&apos;s packing</source>
        <translation>与策略模型的打包相同</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="188"/>
        <location filename="../../engine/scenario/key_words.py" line="192"/>
        <source>padded</source>
        <translation>填充</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="188"/>
        <location filename="../../engine/scenario/key_words.py" line="193"/>
        <source>padding-free</source>
        <translation>无填充</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="200"/>
        <source>AdamW as the framework runs it</source>
        <translation>框架自带的 AdamW</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="208"/>
        <source>NVFP4 compute (Blackwell)</source>
        <translation>NVFP4 计算（Blackwell）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="218"/>
        <source>axolotl (QLoRA adapters in bf16 for DPO / IPO, KTO, reward, GRPO)</source>
        <translation>axolotl（QLoRA 适配器为 bf16：DPO / IPO、KTO、奖励模型、GRPO）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="226"/>
        <source>whole-batch logits in fp32</source>
        <translation>整批 logits 转 fp32</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="227"/>
        <source>logits in chunks</source>
        <translation>分块计算 logits</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="228"/>
        <source>one fused kernel over the logits</source>
        <translation>对 logits 的单个融合内核</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="229"/>
        <source>Transformer Engine&apos;s fused kernel</source>
        <translation>Transformer Engine 的融合内核</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="230"/>
        <source>Transformer Engine&apos;s fused kernel before v2.18</source>
        <translation>v2.18 之前的 Transformer Engine 融合内核</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="231"/>
        <source>Megatron&apos;s fused vocab-parallel loss</source>
        <translation>Megatron 的融合词表并行损失</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="232"/>
        <source>Megatron&apos;s vocab-parallel loss, unfused</source>
        <translation>Megatron 的词表并行损失（未融合）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="233"/>
        <source>fused with the output layer, no logits (Liger)</source>
        <translation>与输出层融合，不生成 logits（Liger）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="234"/>
        <source>logits in the compute dtype, no fp32 upcast</source>
        <translation>logits 保持计算精度，不升为 fp32</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="236"/>
        <source>stays resident</source>
        <translation>常驻显存</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="237"/>
        <source>sleep level 1: weights to CPU memory, KV cache freed</source>
        <translation>睡眠级别 1：权重移到 CPU 内存，释放 KV 缓存</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="238"/>
        <source>sleep level 2: weights and KV cache freed</source>
        <translation>睡眠级别 2：释放权重和 KV 缓存</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="239"/>
        <source>on the training GPUs</source>
        <translation>在训练 GPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="240"/>
        <source>on GPUs of its own</source>
        <translation>在它自己的 GPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="241"/>
        <source>as the objective and framework do it</source>
        <translation>按目标和框架的做法</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="242"/>
        <source>a frozen copy on the GPU</source>
        <translation>GPU 上的一份冻结副本</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="243"/>
        <source>the base with adapters switched off</source>
        <translation>关闭适配器的基础模型</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="244"/>
        <source>log-probs computed before training</source>
        <translation>训练前算好的对数概率</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="246"/>
        <source>the model&apos;s number format (auto)</source>
        <translation>模型的数值格式（自动）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="247"/>
        <source>interleaved 1F1B</source>
        <translation>交错 1F1B</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="248"/>
        <source>zero bubble ZB-1p</source>
        <translation>零气泡 ZB-1p</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="249"/>
        <source>zero bubble ZB-2p</source>
        <translation>零气泡 ZB-2p</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="250"/>
        <source>zero bubble ZB-V</source>
        <translation>零气泡 ZB-V</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="251"/>
        <source>in the compute number format</source>
        <translation>使用计算数值格式</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="252"/>
        <source>as the checkpoint was released</source>
        <translation>按检查点发布时的格式</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="261"/>
        <source>HSDP: shard within %1 GPUs</source>
        <translation>HSDP：在 %1 块 GPU 内分片</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="13"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="14"/>
        <source>Inference engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="15"/>
        <source>Weights as deployed (format)</source>
        <translation>部署的权重（格式）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="16"/>
        <source>KV cache elements</source>
        <translation>KV 缓存元素</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="17"/>
        <source>Context per user (max_model_len)</source>
        <translation>每个用户的上下文（max_model_len）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="18"/>
        <source>Users at once (max_num_seqs)</source>
        <translation>同时服务的用户（max_num_seqs）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="19"/>
        <source>Tokens per scheduler step (max_num_batched_tokens)</source>
        <translation>每个调度步的 token 数（max_num_batched_tokens）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="20"/>
        <source>Share of each GPU (gpu_memory_utilization)</source>
        <translation>每个 GPU 的占用比例（gpu_memory_utilization）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="21"/>
        <source>Tokens per KV block (block_size)</source>
        <translation>每个 KV 块的 token 数（block_size）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="22"/>
        <source>No CUDA graphs (enforce eager)</source>
        <translation>不用 CUDA 图（enforce eager）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="23"/>
        <source>Images per prompt (limit_mm_per_prompt)</source>
        <translation>每个提示的图像数 (limit_mm_per_prompt)</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="24"/>
        <source>Largest image in pixels (max_pixels)</source>
        <translation>最大图像像素数 (max_pixels)</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="25"/>
        <source>Layers on the GPUs (n_gpu_layers)</source>
        <translation>放在 GPU 上的层（n_gpu_layers）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="26"/>
        <source>KV cache size in tokens (n_ctx)</source>
        <translation>KV 缓存大小，按 token 计（n_ctx）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="27"/>
        <source>Logical batch (n_batch)</source>
        <translation>逻辑批大小（n_batch）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="28"/>
        <source>Physical batch (n_ubatch)</source>
        <translation>物理批大小（n_ubatch）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="29"/>
        <source>Flash attention (flash_attn)</source>
        <translation>Flash 注意力（flash_attn）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="30"/>
        <source>Build date (prompt kernels)</source>
        <translation>构建日期（提示词内核）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="31"/>
        <source>Slots decoding at once (n_parallel)</source>
        <translation>同时解码的槽位（n_parallel）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="35"/>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="35"/>
        <source>serve</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="37"/>
        <source>Transformers (generate)</source>
        <translation>Transformers（generate）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="39"/>
        <source>as the checkpoint ships</source>
        <translation>与检查点发布时相同</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="40"/>
        <source>fp8 (8 bits)</source>
        <translation>fp8（8 位）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="41"/>
        <source>int8 (8 bits)</source>
        <translation>int8（8 位）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="42"/>
        <source>AWQ 4-bit</source>
        <translation>AWQ 4 位</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="42"/>
        <source>GPTQ 4-bit</source>
        <translation>GPTQ 4 位</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="43"/>
        <source>bitsandbytes NF4</source>
        <translation>bitsandbytes NF4</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="45"/>
        <source>MLX 4-bit (mlx_lm.convert -q)</source>
        <translation>MLX 4 位（mlx_lm.convert -q）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="46"/>
        <source>MLX 6-bit (mlx_lm.convert -q --q-bits 6)</source>
        <translation>MLX 6 位（mlx_lm.convert -q --q-bits 6）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="47"/>
        <source>MLX 8-bit (mlx_lm.convert -q --q-bits 8)</source>
        <translation>MLX 8 位（mlx_lm.convert -q --q-bits 8）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="50"/>
        <source>as the model&apos;s weights (auto)</source>
        <translation>与模型权重相同（auto）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="51"/>
        <source>fp8: half the bytes</source>
        <translation>fp8：字节数减半</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="52"/>
        <source>q8_0: about half the bytes</source>
        <translation>q8_0：约一半字节</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="53"/>
        <source>q4_0: about a quarter</source>
        <translation>q4_0：约四分之一</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="54"/>
        <source>as the engine decides (auto)</source>
        <translation>由引擎决定（auto）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="56"/>
        <source>June 2024 or later</source>
        <translation>2024 年 6 月及以后</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="57"/>
        <source>October 2023 to June 2024</source>
        <translation>2023 年 10 月至 2024 年 6 月</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="58"/>
        <source>before September 2023 (Metal)</source>
        <translation>2023 年 9 月之前（Metal）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="59"/>
        <source>September 1 to 8, 2023 (Metal)</source>
        <translation>2023 年 9 月 1 日至 8 日（Metal）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_key_words.py" line="60"/>
        <source>September 9 to 14, 2023 (Metal)</source>
        <translation>2023 年 9 月 9 日至 14 日（Metal）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="144"/>
        <location filename="../../engine/scenario/key_words.py" line="155"/>
        <location filename="../../engine/scenario/key_words.py" line="156"/>
        <location filename="../../engine/scenario/key_words.py" line="266"/>
        <location filename="../../engine/scenario/serving_key_words.py" line="55"/>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="144"/>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="145"/>
        <source>full</source>
        <translation>完整</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="153"/>
        <location filename="../../engine/scenario/key_words.py" line="164"/>
        <location filename="../../engine/scenario/key_words.py" line="184"/>
        <location filename="../../engine/scenario/key_words.py" line="245"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="153"/>
        <location filename="../../engine/scenario/key_words.py" line="185"/>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="154"/>
        <location filename="../../engine/scenario/key_words.py" line="186"/>
        <source>optimizer states and weights</source>
        <translation>优化器状态和权重</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="157"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="158"/>
        <source>frozen</source>
        <translation>冻结</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="158"/>
        <source>trained</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="165"/>
        <source>MoE router only</source>
        <translation>仅 MoE 路由器</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="166"/>
        <source>attention and MoE router</source>
        <translation>注意力与 MoE 路由器</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="167"/>
        <source>every transformer layer</source>
        <translation>每个 Transformer 层</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="168"/>
        <source>the whole forward and backward</source>
        <translation>整个前向与反向</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="177"/>
        <source>pre-training or supervised fine-tuning (SFT)</source>
        <translation>预训练或监督微调（SFT）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="189"/>
        <source>packed</source>
        <translation>打包</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="190"/>
        <source>no budget</source>
        <translation>不设上限</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="196"/>
        <source>AdamW fused</source>
        <translation>AdamW（融合实现）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="197"/>
        <source>AdamW 8-bit</source>
        <translation>AdamW 8 位</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="198"/>
        <source>AdamW 8-bit, paged</source>
        <translation>AdamW 8 位（分页）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="199"/>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="201"/>
        <source>bf16 autocast, fp32 weights (AMP)</source>
        <translation>bf16 autocast，fp32 权重（AMP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="202"/>
        <source>fp16 autocast, fp32 weights (AMP)</source>
        <translation>fp16 autocast，fp32 权重（AMP）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="203"/>
        <source>pure bf16 (weights, grads, states)</source>
        <translation>纯 bf16（权重、梯度、状态）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="204"/>
        <source>pure fp16</source>
        <translation>纯 fp16</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="205"/>
        <source>bf16 + fp32 master weights (DeepSpeed, Megatron)</source>
        <translation>bf16 + fp32 主权重（DeepSpeed、Megatron）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="206"/>
        <source>fp16 + fp32 master weights (DeepSpeed, Megatron)</source>
        <translation>fp16 + fp32 主权重（DeepSpeed、Megatron）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="207"/>
        <source>fp8 compute (Transformer Engine, torchao)</source>
        <translation>fp8 计算（Transformer Engine、torchao）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="209"/>
        <source>full fp32</source>
        <translation>全 fp32</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="213"/>
        <source>TRL (post-training; QLoRA adapters in bf16: SFT, GRPO, reward from 0.26, RLOO 0.27, DPO / IPO 0.29, KTO 1.4)</source>
        <translation>TRL（后训练；QLoRA 适配器为 bf16：SFT、GRPO、奖励模型自 0.26 起，RLOO 自 0.27，DPO / IPO 自 0.29，KTO 自 1.4）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="215"/>
        <source>TRL before its trainer&apos;s bf16 cast (QLoRA adapters in fp32: every trainer up to 0.25, RLOO 0.26, DPO / IPO up to 0.28, KTO up to 1.3)</source>
        <translation>TRL 在其训练器转换为 bf16 之前的版本（QLoRA 适配器为 fp32：所有训练器 0.25 及更早，RLOO 0.26，DPO / IPO 0.28 及更早，KTO 1.3 及更早）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="220"/>
        <source>all linear layers</source>
        <translation>全部线性层</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="221"/>
        <source>all attention projections</source>
        <translation>全部注意力投影层</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="257"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="264"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="265"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="266"/>
        <location filename="../../engine/scenario/serving_key_words.py" line="55"/>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="72"/>
        <source>GPU memory allocator</source>
        <translation>GPU 显存分配器</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="73"/>
        <source>Gradient reduce bucket (reduce_bucket_size)</source>
        <translation>梯度归约桶（reduce_bucket_size）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="74"/>
        <source>Weight gather bucket (allgather_bucket_size)</source>
        <translation>权重收集桶（allgather_bucket_size）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="75"/>
        <source>Most gathered weights at once (stage3_max_live_parameters)</source>
        <translation>同时收集的权重上限（stage3_max_live_parameters）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="77"/>
        <source>Weights fetched ahead (stage3_prefetch_bucket_size)</source>
        <translation>提前取回的权重（stage3_prefetch_bucket_size）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="79"/>
        <source>Gradient buffer</source>
        <translation>梯度缓冲区</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="160"/>
        <source>as the framework&apos;s launcher sets it</source>
        <translation>按框架启动脚本的设置</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="161"/>
        <source>as Megatron does it (fp32)</source>
        <translation>按 Megatron 的做法（fp32）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/key_words.py" line="162"/>
        <location filename="../../engine/scenario/key_words.py" line="163"/>
        <location filename="../../engine/scenario/key_words.py" line="169"/>
        <location filename="../../engine/scenario/key_words.py" line="173"/>
        <location filename="../../engine/scenario/key_words.py" line="174"/>
        <location filename="../../engine/scenario/key_words.py" line="194"/>
        <location filename="../../engine/scenario/key_words.py" line="225"/>
        <source>as the framework does it</source>
        <translation>按框架默认</translation>
    </message>
</context>
<context>
    <name>FitPanel</name>
    <message>
        <location filename="../fit_panel.py" line="136"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Search again</source>
        <translation type="vanished">重新搜索</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="165"/>
        <source>Searching the guide&apos;s changes for the least disruptive plans…</source>
        <translation>正在从指南给出的调整中搜索影响最小的方案…</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="189"/>
        <source>Its framework cannot run this layout (see the warnings). Plans from the layout it can run, least disruptive first:</source>
        <translation>其框架无法运行此布局（见警告）。以下是从它能运行的布局出发的方案，改动最少的在前：</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="192"/>
        <source>It fits as it is. The limits above show how far you can push it.</source>
        <translation>当前配置已经放得下。上方的上限显示了还能再加多少。</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="194"/>
        <source>No combination of the guide&apos;s changes makes this fit on these GPUs.</source>
        <translation>指南中的调整无论怎样组合，都无法让它在这些 GPU 上放得下。</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="196"/>
        <source>Plans that make it fit, least disruptive first (not least memory):</source>
        <translation>能放得下的方案，按影响从小到大排列（而不是按显存从少到多）：</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="199"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="203"/>
        <source>Largest %(family)s model that fits the layout %(framework)s can run (%(settings)s): %(model)s</source>
        <translation>在 %(framework)s 能运行的布局（%(settings)s）下能装下的最大 %(family)s 模型：%(model)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="205"/>
        <source>Largest %(family)s model that fits this set-up: %(model)s</source>
        <translation>按此设置能放下的最大 %(family)s 模型：%(model)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="208"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="210"/>
        <location filename="../fit_panel.py" line="260"/>
        <source> and </source>
        <translation>，并</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="211"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="214"/>
        <source>per GPU, %s headroom</source>
        <translation>每块 GPU，余量 %s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="232"/>
        <source>%(tps)s tokens/s, %(step)s per step</source>
        <translation>%(tps)s tokens/s，每步 %(step)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="216"/>
        <source>Changes: </source>
        <translation>改动：</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="218"/>
        <source>Assumptions changed: </source>
        <translation>改变的假设：</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="vanished">应用</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="243"/>
        <source>cannot take this set-up</source>
        <translation>无法用于此设置</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="243"/>
        <source>no vision tower for the images</source>
        <translation>没有视觉编码器，无法处理图像</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="245"/>
        <source>%(model)s (%(params)s parameters): %(verdict)s</source>
        <translation>%(model)s（%(params)s 参数）：%(verdict)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="249"/>
        <source>%(model)s (%(params)s parameters): %(verdict)s, %(memory)s per GPU</source>
        <translation>%(model)s（%(params)s 参数）：%(verdict)s，每 GPU %(memory)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="253"/>
        <source>The %s family on this set-up:</source>
        <translation>%s 系列各型号在此设置下：</translation>
    </message>
</context>
<context>
    <name>FrameworkOptions</name>
    <message>
        <location filename="../framework_options.py" line="30"/>
        <source>Training framework</source>
        <translation>训练框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="37"/>
        <source>Hugging Face Trainer / LLaMA-Factory</source>
        <translation>Hugging Face Trainer / LLaMA-Factory 系</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="38"/>
        <source>DeepSpeed</source>
        <translation>DeepSpeed 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="41"/>
        <source>torchtune</source>
        <translation>torchtune 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="42"/>
        <source>torchtitan</source>
        <translation>torchtitan 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="43"/>
        <source>Megatron-LM / NeMo</source>
        <translation>Megatron-LM / NeMo 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="44"/>
        <source>Megatron-LM (2022 to mid-2023)</source>
        <translation>Megatron-LM（2022 年至 2023 年中）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="45"/>
        <source>Megatron-LM (2021)</source>
        <translation>Megatron-LM（2021 年版）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="46"/>
        <source>Megatron-LM (Zero Bubble PP fork)</source>
        <translation>Megatron-LM（Zero Bubble 流水线并行分支）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="47"/>
        <source>Unsloth</source>
        <translation>Unsloth 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="48"/>
        <source>LitGPT</source>
        <translation>LitGPT 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="49"/>
        <source>plain PyTorch loop</source>
        <translation>纯 PyTorch 训练循环</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="50"/>
        <source>PyTorch FSDP (IBM fms-fsdp)</source>
        <translation>PyTorch FSDP（IBM fms-fsdp）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="51"/>
        <source>OLMo-core</source>
        <translation>OLMo-core 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="52"/>
        <source>NeMo AutoModel, Transformer Engine backend</source>
        <translation>NeMo AutoModel（Transformer Engine 后端）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="40"/>
        <source>DeepSpeed (April 2021)</source>
        <translation>DeepSpeed（2021 年 4 月版）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="39"/>
        <source>DeepSpeed 0.4.4-0.12 (2021-2023)</source>
        <translation>DeepSpeed 0.4.4-0.12（2021-2023 年）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="53"/>
        <source>InternEvo</source>
        <translation>InternEvo 框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="54"/>
        <source>Aleph Alpha Scaling (2023 layout sweep)</source>
        <translation>Aleph Alpha Scaling 框架（2023 年并行布局测试）</translation>
    </message>
    <message>
        <source>TRL (post-training)</source>
        <translation type="vanished">TRL（后训练）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="57"/>
        <source>verl (post-training)</source>
        <translation>verl（后训练）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="58"/>
        <source>OpenRLHF (post-training)</source>
        <translation>OpenRLHF（后训练）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="59"/>
        <source>ms-swift (post-training)</source>
        <translation>ms-swift（后训练）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="60"/>
        <source>NeMo-RL (post-training)</source>
        <translation>NeMo-RL（后训练）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="61"/>
        <source>Meta&apos;s Llama 3 stack (arXiv:2407.21783)</source>
        <translation>Meta 的 Llama 3 训练栈（arXiv:2407.21783）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="62"/>
        <source>verl, Megatron actor (post-training)</source>
        <translation>verl，Megatron actor（后训练）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="63"/>
        <source>NeMo-RL, Megatron backend (post-training)</source>
        <translation>NeMo-RL，Megatron 后端（后训练）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="64"/>
        <source>MLX / mlx-lm (Apple GPUs)</source>
        <translation>MLX / mlx-lm（Apple GPU）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="65"/>
        <source>MLX v0.0.6 (December 2023, Apple GPUs)</source>
        <translation>MLX v0.0.6（2023 年 12 月，Apple GPU）</translation>
    </message>
    <message>
        <source>TRL up to 0.25 (2025; QLoRA adapters in fp32)</source>
        <translation type="vanished">TRL 0.25 及更早版本（2025 年；QLoRA 适配器为 fp32）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="68"/>
        <source>Unsloth up to 2025.1 (2024; no global dequantisation buffer)</source>
        <translation>Unsloth 2025.1 及更早（2024；无全局反量化缓冲区）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="69"/>
        <source>axolotl (QLoRA adapters in bf16 for DPO / IPO, KTO, reward, GRPO)</source>
        <translation>axolotl（QLoRA 适配器为 bf16：DPO / IPO、KTO、奖励模型、GRPO）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="71"/>
        <location filename="../framework_options.py" line="214"/>
        <source>Sets the loss, checkpointing and loading the framework uses by default</source>
        <translation>按该框架的默认做法设定损失计算、激活检查点和模型加载方式</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="72"/>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="74"/>
        <source>as the framework does it</source>
        <translation>按框架默认</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="75"/>
        <source>whole-batch logits in fp32 (standard)</source>
        <translation>整批 logits 转 fp32（标准）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="76"/>
        <source>logits in chunks (chunked)</source>
        <translation>分块计算 logits（分块）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="77"/>
        <source>one fused kernel over the logits (flash-attn)</source>
        <translation>对 logits 的单个融合内核（flash-attn）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="78"/>
        <source>Transformer Engine&apos;s fused kernel, fp32 gradient (Megatron)</source>
        <translation>Transformer Engine 的融合内核，fp32 梯度（Megatron）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="79"/>
        <source>Transformer Engine&apos;s fused kernel before v2.18, gradient over the logits (Megatron)</source>
        <translation>Transformer Engine 的融合内核（v2.18 之前），梯度直接写回 logits（Megatron）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="81"/>
        <source>Megatron&apos;s fused vocab-parallel loss, compiled backward (ms-swift&apos;s default)</source>
        <translation>Megatron 的融合词表并行损失，编译后的反向传播（ms-swift 的默认设置）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="82"/>
        <source>fused with the output layer, no logits (Liger / fused)</source>
        <translation>与输出层融合，不生成 logits（Liger / 融合）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="83"/>
        <source>whole-batch logits in the compute dtype, no fp32 upcast (Qwen-1, older models)</source>
        <translation>整批 logits 保持计算精度，不升为 fp32（Qwen-1、较早的模型）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="84"/>
        <source>Megatron&apos;s vocab-parallel loss without its fusion flag, kernel by kernel (Megatron-LM before mid-2024)</source>
        <translation>Megatron 的词表并行交叉熵，未开启融合选项，逐个内核运行（2024 年中以前的 Megatron-LM）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="87"/>
        <source>Loss computation</source>
        <translation>损失计算</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="89"/>
        <source>the framework&apos;s choice for the GPU (auto)</source>
        <translation>按框架为该 GPU 的选择（auto）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="90"/>
        <source>FlashAttention-1 (flash1)</source>
        <translation>FlashAttention-1（flash1）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="91"/>
        <source>FlashAttention-2 (flash2)</source>
        <translation>FlashAttention-2（flash2）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="92"/>
        <source>FlashAttention-3, Hopper only (flash3)</source>
        <translation>FlashAttention-3，仅 Hopper（flash3）</translation>
    </message>
    <message>
        <source>FlashAttention-4, Blackwell (flash4)</source>
        <translation type="vanished">FlashAttention-4，Blackwell（flash4）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="94"/>
        <source>cuDNN 9 fused attention, Transformer Engine (cudnn)</source>
        <translation>cuDNN 9 融合注意力，Transformer Engine（cudnn）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="95"/>
        <source>cuDNN 8.9 fused attention, older NeMo containers (cudnn8)</source>
        <translation>cuDNN 8.9 融合注意力，较旧的 NeMo 容器（cudnn8）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="96"/>
        <source>Triton FlashAttention, llm-foundry&apos;s attn_impl triton (triton)</source>
        <translation>Triton 版 FlashAttention，llm-foundry 的 attn_impl triton（triton）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="99"/>
        <source>Which fused attention kernel the step time assumes. Their speed differs by GPU generation (FlashAttention-3 on Hopper, cuDNN and FlashAttention-4 on Blackwell); the memory is the same.</source>
        <translation>步时估算所假定的融合注意力内核。它们的速度随 GPU 代际而不同（Hopper 上的 FlashAttention-3，Blackwell 上的 cuDNN 与 FlashAttention-4）；显存占用相同。</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="101"/>
        <source>Attention kernel variant</source>
        <translation>注意力内核版本</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="102"/>
        <source>compile the model (torch.compile)</source>
        <translation>编译模型（torch.compile）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="103"/>
        <source>Liger kernels for norms and SwiGLU (use_liger_kernel)</source>
        <translation>对归一化层和 SwiGLU 使用 Liger 内核（use_liger_kernel）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="105"/>
        <source>Liger-Kernel&apos;s RMSNorm and SwiGLU keep fewer tensors for the backward pass</source>
        <translation>Liger-Kernel 的 RMSNorm 和 SwiGLU 为反向传播保留更少的张量</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="106"/>
        <source>move saved activations to CPU memory (activation offloading)</source>
        <translation>把保存的激活移到 CPU 内存（激活卸载）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="107"/>
        <source>update weights during the backward pass (optimizer in backward)</source>
        <translation>在反向传播中更新权重（反向中优化）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="108"/>
        <source>shard optimizer states over GPUs (distributed optimizer)</source>
        <translation>把优化器状态分片到各 GPU（分布式优化器）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="109"/>
        <source>also fully train the token embeddings (modules_to_save)</source>
        <translation>同时完整训练词嵌入（modules_to_save）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="110"/>
        <source>also fully train the output layer (modules_to_save)</source>
        <translation>同时完整训练输出层（modules_to_save）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="146"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="148"/>
        <source>CPU memory of one node: checked against what loading and offloading need</source>
        <translation>单个节点的 CPU 内存：用于检查加载和卸载所需的内存</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="149"/>
        <source>CPU memory per node</source>
        <translation>每节点 CPU 内存</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="116"/>
        <source>as the framework&apos;s launcher sets it</source>
        <translation>按框架启动脚本的设置</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="55"/>
        <source>TRL (post-training; QLoRA adapters in bf16: SFT, GRPO, reward from 0.26, RLOO 0.27, DPO / IPO 0.29, KTO 1.4)</source>
        <translation>TRL（后训练；QLoRA 适配器为 bf16：SFT、GRPO、奖励模型自 0.26 起，RLOO 自 0.27，DPO / IPO 自 0.29，KTO 自 1.4）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="66"/>
        <source>TRL before its trainer&apos;s bf16 cast (QLoRA adapters in fp32: every trainer up to 0.25, RLOO 0.26, DPO / IPO up to 0.28, KTO up to 1.3)</source>
        <translation>TRL 在其训练器转换为 bf16 之前的版本（QLoRA 适配器为 fp32：所有训练器 0.25 及更早，RLOO 0.26，DPO / IPO 0.28 及更早，KTO 1.3 及更早）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="93"/>
        <source>FlashAttention-4, Hopper and Blackwell (flash4)</source>
        <translation>FlashAttention-4，Hopper 与 Blackwell（flash4）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="117"/>
        <source>one growing block per stream (expandable_segments on)</source>
        <translation>每个流一个可增长的内存段（expandable_segments 开）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="118"/>
        <source>a block per request (expandable_segments off)</source>
        <translation>每次请求一个内存段（expandable_segments 关）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="121"/>
        <source>PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True leaves fewer reserved-but-unused gaps</source>
        <translation>PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True 留下更少已预留但未使用的空隙</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="122"/>
        <source>GPU memory allocator</source>
        <translation>GPU 显存分配器</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="124"/>
        <source>as Megatron does it (fp32)</source>
        <translation>按 Megatron 的做法（fp32）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="125"/>
        <source>accumulate gradients in fp32 (main_grads_fp32)</source>
        <translation>以 fp32 累积梯度（main_grads_fp32）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="126"/>
        <source>gradients in the training precision (main_grads_fp32 off)</source>
        <translation>梯度使用训练精度（main_grads_fp32 关）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="128"/>
        <source>Gradient buffer</source>
        <translation>梯度缓冲区</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="129"/>
        <source>Gradient reduce bucket (reduce_bucket_size)</source>
        <translation>梯度归约桶（reduce_bucket_size）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="130"/>
        <source>Weight gather bucket (allgather_bucket_size)</source>
        <translation>权重收集桶（allgather_bucket_size）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="131"/>
        <source>Most gathered weights at once (stage3_max_live_parameters)</source>
        <translation>同时收集的权重上限（stage3_max_live_parameters）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="132"/>
        <source>Weights fetched ahead (stage3_prefetch_bucket_size)</source>
        <translation>提前取回的权重（stage3_prefetch_bucket_size）</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="138"/>
        <source> million values</source>
        <translation> 百万个值</translation>
    </message>
    <message>
        <location filename="../framework_options.py" line="140"/>
        <source>DeepSpeed ZeRO setting, in millions of values (elements)</source>
        <translation>DeepSpeed ZeRO 设置，单位为百万个值（元素）</translation>
    </message>
</context>
<context>
    <name>HardwarePicker</name>
    <message>
        <location filename="../pickers.py" line="308"/>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="311"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="311"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="311"/>
        <source>Search GPUs (e.g. 4090, H100, MI300)</source>
        <translation>搜索 GPU（如 4090、H100、MI300）</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="319"/>
        <source>Custom GPU…</source>
        <translation>自定义 GPU…</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="320"/>
        <source>GPUs in each machine. More GPUs only lower the memory per GPU when something is split over them (ZeRO/FSDP, tensor, pipeline, context or expert parallelism); plain data parallelism copies everything.</source>
        <translation>每台机器的 GPU 数。只有把某些东西切分到多块 GPU 上（ZeRO/FSDP、张量、流水线、上下文或专家并行）时，GPU 越多每块的显存才越少；单纯的数据并行会复制全部内容。</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="323"/>
        <source>Machines. Total GPUs = GPUs per node × nodes; communication between nodes is slower than within one.</source>
        <translation>机器数。GPU 总数 = 每节点 GPU 数 × 节点数；节点之间的通信比节点内部慢。</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="325"/>
        <source>A GPU that is not in the list: give its name and memory</source>
        <translation>列表中没有的 GPU：填写名称和显存</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="327"/>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="329"/>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="366"/>
        <location filename="../pickers.py" line="368"/>
        <source>GPU: %s</source>
        <translation>GPU：%s</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="372"/>
        <source>data centre</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="372"/>
        <source>workstation</source>
        <translation>工作站</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="373"/>
        <source>consumer</source>
        <translation>消费级</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="373"/>
        <source>unified memory</source>
        <translation>统一内存</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="378"/>
        <source>Your GPUs</source>
        <translation>你的 GPU</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="405"/>
        <source> (custom)</source>
        <translation>（自定义）</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="406"/>
        <source>%(n)s × %(gpu)s%(custom)s, %(mem)s each</source>
        <translation>%(n)s × %(gpu)s%(custom)s，每块 %(mem)s</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="413"/>
        <source>and %s more of them for the generation engine, on GPUs of its own</source>
        <translation>另有 %s 块供生成引擎专用</translation>
    </message>
    <message>
        <source>%(n)d × %(gpu)s%(custom)s, %(mem)s each</source>
        <translation type="vanished">%(n)d × %(gpu)s%(custom)s，每块 %(mem)s</translation>
    </message>
    <message>
        <location filename="../node_link_row.py" line="22"/>
        <source>GPU link in a node: %(rate)s GB/s each way (the scenario file&apos;s)</source>
        <translation>节点内 GPU 互联：单向 %(rate)s GB/s（场景文件所设）</translation>
    </message>
    <message>
        <location filename="../node_link_row.py" line="23"/>
        <source>GPU link in a node: %(link)s, %(rate)s GB/s each way (the scenario file&apos;s; at or below the card&apos;s PCIe x16, so timed as PCIe)</source>
        <translation>节点内 GPU 互联：%(link)s，单向 %(rate)s GB/s（场景文件所设；不高于该卡的 PCIe x16，按 PCIe 计时）</translation>
    </message>
    <message>
        <location filename="../node_link_row.py" line="26"/>
        <source>GPU link in a node: %(link)s, %(rate)s GB/s each way (no GPU link)</source>
        <translation>节点内 GPU 互联：%(link)s，单向 %(rate)s GB/s（无 GPU 直连）</translation>
    </message>
    <message>
        <location filename="../node_link_row.py" line="27"/>
        <source>GPU link in a node: %(link)s, %(rate)s GB/s each way (the card&apos;s)</source>
        <translation>节点内 GPU 互联：%(link)s，单向 %(rate)s GB/s（该卡自带）</translation>
    </message>
    <message>
        <location filename="../node_link_row.py" line="28"/>
        <source>The link the step time takes between the GPUs of one node (tensor, expert and pipeline parallelism, and the data-parallel reduce inside a node). PCIe cards of a GPU listed with NVLink (A100 PCIe), or cards bridged in pairs only: state the link in the scenario file as intra_node_bandwidth_bytes_per_s (bytes/s each way; PCIe 4.0 x16: 31500000000).</source>
        <translation>步时所用的节点内 GPU 之间的互联（张量、专家和流水线并行，以及节点内的数据并行归约）。列表中带 NVLink 的 GPU 的 PCIe 版（A100 PCIe），或仅两两桥接的卡：请在场景文件中用 intra_node_bandwidth_bytes_per_s 写明互联带宽（单向字节/秒；PCIe 4.0 x16：31500000000）。</translation>
    </message>
</context>
<context>
    <name>ImportReview</name>
    <message>
        <location filename="../import_review.py" line="36"/>
        <source>Review the imported training config</source>
        <translation>检查导入的训练配置</translation>
    </message>
    <message>
        <source>Read %1 file(s) (%2): %3 settings used, %4 assumed, %5 not used.</source>
        <translation type="vanished">已读取 %1 个文件（%2）：使用了 %3 项设置，假定了 %4 项，未使用 %5 项。</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="37"/>
        <source>Read %1 files (%2): %3 settings used, %4 assumed, %5 not used.</source>
        <translation>已读取 %1 个文件（%2）：使用了 %3 项设置，假定了 %4 项，未使用 %5 项。</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="38"/>
        <source>Read one file (%2): %3 settings used, %4 assumed, %5 not used.</source>
        <translation>已读取 1 个文件（%2）：使用了 %3 项设置，假定了 %4 项，未使用 %5 项。</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="39"/>
        <source>No model preset matched the file; the current model (%1) is kept. Pick another one after the import.</source>
        <translation>文件中的模型没有匹配的预设；保留当前模型（%1）。导入后可另选模型。</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="41"/>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="42"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="43"/>
        <source>Read from</source>
        <translation>读取自</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="44"/>
        <source>Read (%1)</source>
        <translation>已读取（%1）</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="45"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="46"/>
        <source>Assumed (%1)</source>
        <translation>已假定（%1）</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="47"/>
        <source>In the file</source>
        <translation>文件中的项</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="48"/>
        <source>Why it is not used</source>
        <translation>未使用的原因</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="49"/>
        <source>Not used (%1)</source>
        <translation>未使用（%1）</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="50"/>
        <source>Replace the scenario</source>
        <translation>替换当前方案</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="51"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="52"/>
        <source>Import the training config files of one job</source>
        <translation>导入同一训练任务的配置文件</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="53"/>
        <source>Export launch config</source>
        <translation>导出启动配置</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="54"/>
        <source>The settings the plan decides (parallelism, ZeRO stage, offload, batch and accumulation, checkpointing, precision, LoRA/QLoRA), to merge into your own config.</source>
        <translation>方案所决定的设置（并行方式、ZeRO 阶段、卸载、批次与梯度累积、激活检查点、精度、LoRA/QLoRA），请合并到你自己的配置中。</translation>
    </message>
    <message>
        <location filename="../import_review.py" line="57"/>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <location filename="../library_panel.py" line="53"/>
        <source>Filter by name, model or GPU</source>
        <translation>按名称、模型或 GPU 筛选</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="59"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="59"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="59"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="59"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="59"/>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="94"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="94"/>
        <source>Duplicate</source>
        <translation>创建副本</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="94"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="95"/>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="98"/>
        <source>Restore deleted…</source>
        <translation>恢复已删除…</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="97"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="97"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="96"/>
        <source>Compare selected</source>
        <translation>对比所选</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="60"/>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="95"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="96"/>
        <source>Compare with current</source>
        <translation>与当前对比</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="104"/>
        <source>Move the selected scenarios to the trash (Delete key); Undo or Restore deleted… brings them back</source>
        <translation>把选中的场景移到回收站（Delete 键）；撤销或“恢复已删除…”可以找回</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="106"/>
        <source>Rename the selected scenario (F2)</source>
        <translation>重命名选中的场景（F2）</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="56"/>
        <source> (example, read-only)</source>
        <translation>（示例，只读）</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="56"/>
        <source> (read-only)</source>
        <translation>（只读）</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="57"/>
        <source>cannot be estimated (%s)</source>
        <translation>无法估算（%s）</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="57"/>
        <source>estimating…</source>
        <translation>估算中…</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="243"/>
        <source>Select 2 to 4 scenarios</source>
        <translation>选择 2 到 4 个场景</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="245"/>
        <source>The editor&apos;s scenario beside 1 to 3 selected ones</source>
        <translation>将编辑器中的场景与 1 到 3 个所选场景并排对比</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="253"/>
        <location filename="../library_panel.py" line="299"/>
        <location filename="../library_panel.py" line="310"/>
        <location filename="../library_panel.py" line="330"/>
        <location filename="../library_panel.py" line="349"/>
        <source>Library</source>
        <translation>场景库</translation>
    </message>
    <message numerus="yes">
        <location filename="../library_panel.py" line="303"/>
        <source>Moved %n scenario(s) to the trash.</source>
        <translation>
            <numerusform>已把 %n 个场景移到回收站。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="325"/>
        <source>Rename scenario</source>
        <translation>重命名场景</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="325"/>
        <source>New name</source>
        <translation>新名称</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="339"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="339"/>
        <source>Nothing has been deleted.</source>
        <translation>没有已删除的场景。</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="343"/>
        <source>Restore a deleted scenario</source>
        <translation>恢复已删除的场景</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="344"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="353"/>
        <source>Deleted scenarios stay in the trash for %1 days and backups of older-format files for %2 days (at most %3 of each, newest kept); quarantined files are never removed.</source>
        <translation>已删除的场景在回收站中保留 %1 天，旧格式文件的备份保留 %2 天（每类最多 %3 个，保留最新的）；隔离的文件永不删除。</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="359"/>
        <source>Import a scenario</source>
        <translation>导入场景</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="366"/>
        <source>Cannot import %s</source>
        <translation>无法导入 %s</translation>
    </message>
    <message>
        <location filename="../library_panel.py" line="376"/>
        <source>Export scenario</source>
        <translation>导出场景</translation>
    </message>
</context>
<context>
    <name>LimitsLabel</name>
    <message>
        <source>none up to 1024</source>
        <translation type="vanished">1024 张以内都不够</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="72"/>
        <source>none up to %1</source>
        <translation>%1 张以内都不够</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="76"/>
        <source>micro-batch %(mb)s or more (the most searched) · sequence ≤ %(seq)s tokens</source>
        <translation>微批次 %(mb)s 及以上（已搜索到上限） · 序列长度 ≤ %(seq)s 个 token</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="79"/>
        <source>micro-batch ≤ %(mb)d · sequence ≤ %(seq)s tokens</source>
        <translation>微批次 ≤ %(mb)d · 序列长度 ≤ %(seq)s 个 token</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="88"/>
        <source>not even micro-batch 1 fits (it runs only by eating into the reserve)</source>
        <translation>连微批次 1 也放不下（只能占用安全余量运行）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="90"/>
        <source>not even micro-batch 1 fits</source>
        <translation>连微批次 1 也放不下</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="96"/>
        <source>With the safety reserve kept: %(batch)s · fewest GPUs with ZeRO-3: %(z3)s, with TP and PP only: %(tp)s</source>
        <translation>保留安全余量时：%(batch)s · 使用 ZeRO-3 最少需要 GPU：%(z3)s，仅用 TP 和 PP：%(tp)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="102"/>
        <source>TP and PP only</source>
        <translation>TP 与 PP（不含 CP、EP）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="103"/>
        <source>TP in a node (no PP)</source>
        <translation>节点内 TP（无 PP）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="103"/>
        <source>PP (no TP)</source>
        <translation>PP（无 TP）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="106"/>
        <location filename="../fit_panel.py" line="108"/>
        <source>with %(kind)s: %(n)s</source>
        <translation>使用 %(kind)s：%(n)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="107"/>
        <source>none with sharding (%s has none)</source>
        <translation>无分片方案（%s 不支持分片）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="109"/>
        <source>none with TP/PP (%s has neither)</source>
        <translation>无 TP/PP 方案（%s 两者都不支持）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="110"/>
        <source>fewest GPUs %(z3)s, %(tp)s</source>
        <translation>最少 GPU 数 %(z3)s，%(tp)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="113"/>
        <source>more GPUs cannot share the model (%s has no sharding, TP or PP)</source>
        <translation>更多 GPU 也无法分担模型（%s 不支持分片、TP 或 PP）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="117"/>
        <source>With the safety reserve kept, for the layout %(framework)s can run (%(settings)s): %(batch)s · %(gpus)s</source>
        <translation>保留安全余量时，在 %(framework)s 能运行的布局（%(settings)s）下：%(batch)s · %(gpus)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="120"/>
        <source>With the safety reserve kept: %(batch)s · %(gpus)s</source>
        <translation>保留安全余量时：%(batch)s · %(gpus)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="123"/>
        <source> (the generation engine split up to a node)</source>
        <translation>（生成引擎最多拆分到一个节点）</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="86"/>
        <source>the generation engine&apos;s start-up decides, not the micro-batch</source>
        <translation>决定因素是生成引擎能否启动，而不是微批次</translation>
    </message>
    <message>
        <source>With the safety reserve kept: %(batch)s · fewest GPUs with ZeRO-3: %(z3)s, with TP/PP: %(tp)s</source>
        <translation type="vanished">保留安全余量时：%(batch)s · 使用 ZeRO-3 最少需要 GPU：%(z3)s，使用 TP/PP：%(tp)s</translation>
    </message>
    <message>
        <location filename="../fit_panel.py" line="82"/>
        <source>micro-batch ≤ %(mb)d · no sequence length fits at micro-batch %(now)s</source>
        <translation>微批次 ≤ %(mb)d · 微批次为 %(now)s 时任何序列长度都放不下</translation>
    </message>
</context>
<context>
    <name>LocalModels</name>
    <message>
        <location filename="../local_models.py" line="34"/>
        <source>On this computer</source>
        <translation>本机上的模型</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="35"/>
        <source>Your models</source>
        <translation>你的模型</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="36"/>
        <source>%(model)s cannot be used: %(why)s</source>
        <translation>无法使用 %(model)s：%(why)s</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="37"/>
        <source>The weights were not read: %s</source>
        <translation>未读取权重：%s</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="38"/>
        <source>No .safetensors weights in this folder (only config.json was read).</source>
        <translation>此文件夹中没有 .safetensors 权重（只读取了 config.json）。</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="39"/>
        <source>the first %(read)d of %(found)d files (the rest were not read)</source>
        <translation>前 %(read)d 个文件（共 %(found)d 个，其余未读取）</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="40"/>
        <source>%d file(s)</source>
        <translation>%d 个文件</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="41"/>
        <source>Checkpoint: %(files)s hold no parameters; the config says %(n)s.</source>
        <translation>检查点：%(files)s中没有参数；配置给出的是 %(n)s。</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="42"/>
        <source>, stored %s</source>
        <translation>，存储格式 %s</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="43"/>
        <source>matches the config</source>
        <translation>与配置一致</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="44"/>
        <source>the config says %s</source>
        <translation>配置给出的是 %s</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="45"/>
        <source>Checkpoint: %(n)s parameters in %(files)s, mostly %(dtype)s%(quant)s; %(agree)s.</source>
        <translation>检查点：%(files)s中共 %(n)s 个参数，主要为 %(dtype)s%(quant)s；%(agree)s。</translation>
    </message>
</context>
<context>
    <name>LoraRows</name>
    <message>
        <location filename="../lora_rows.py" line="54"/>
        <source>Adapter rank (LoRA r)</source>
        <translation>适配器秩（LoRA r）</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="55"/>
        <source>Adapted layers (targets)</source>
        <translation>适配的层（targets）</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="44"/>
        <source>all layers</source>
        <translation>所有层</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="45"/>
        <source>top </source>
        <translation>顶部 </translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="47"/>
        <source>on</source>
        <translation>作用于</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="57"/>
        <source>decoder layers carrying LoRA adapters, counted from the top (mlx-lm --num-layers, PEFT layers_to_transform of the top layers). The layers below the lowest adapted one run no backward pass and keep no activations for it: fewer layers is less activation memory and a shorter step. &quot;all layers&quot; (0) adapts them all.</source>
        <translation>带 LoRA 适配器的解码器层数，从顶层起算（mlx-lm --num-layers，PEFT 对顶部各层的 layers_to_transform）。最低一个带适配器的层以下的各层不运行反向传播，也不为它保留激活值：层数越少，激活显存越少、每步越短。“所有层”（0）表示所有层都加适配器。</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="61"/>
        <source>Width of each adapter. Memory for adapters, their gradients and optimizer states grows in proportion; 8–64 is usual.</source>
        <translation>每个适配器的宽度。适配器及其梯度、优化器状态的显存随之成比例增长；常用 8–64。</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="65"/>
        <source>Which linear layers get adapters. More layers: more trainable weights and a little more activation memory, usually better quality.</source>
        <translation>哪些线性层加适配器。层越多：可训练权重越多、激活显存略增，质量通常更好。</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="75"/>
        <source>all attention projections</source>
        <translation>全部注意力投影层</translation>
    </message>
    <message>
        <location filename="../lora_rows.py" line="75"/>
        <source>all linear layers</source>
        <translation>全部线性层</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../main_window.py" line="97"/>
        <source>GiB = 2³⁰ bytes (what nvidia-smi and PyTorch print); GB = 10⁹ bytes</source>
        <translation>GiB = 2³⁰ 字节（nvidia-smi 和 PyTorch 显示的单位）；GB = 10⁹ 字节</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="102"/>
        <source>Units</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="127"/>
        <source>Breakdown</source>
        <translation>明细</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="129"/>
        <source>Time and cost</source>
        <translation>时间与费用</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="130"/>
        <source>Suggestions</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="132"/>
        <source>Make it fit</source>
        <translation>让它放得下</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="136"/>
        <source>Fastest layouts</source>
        <translation>最快的并行布局</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="144"/>
        <source>Library</source>
        <translation>场景库</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="146"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="205"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="206"/>
        <source>&amp;New scenario</source>
        <translation>新建场景(&amp;N)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="215"/>
        <source>Import training config…</source>
        <translation>导入训练配置…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="217"/>
        <source>Export launch config…</source>
        <translation>导出启动配置…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="207"/>
        <source>&amp;Open a scenario file…</source>
        <translation>打开场景文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="140"/>
        <location filename="../serve_mode.py" line="93"/>
        <source>What should I rent?</source>
        <translation>该租什么 GPU？</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="150"/>
        <source>Diagnose</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="209"/>
        <source>&amp;Save to the library</source>
        <translation>保存到场景库(&amp;S)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="210"/>
        <source>Save to the library &amp;as…</source>
        <translation>另存到场景库(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="212"/>
        <source>Save a copy to a &amp;file…</source>
        <translation>保存副本到文件(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="214"/>
        <source>Add a model from a config.json file…</source>
        <translation>从 config.json 文件添加模型…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="218"/>
        <source>&amp;Export to a file</source>
        <translation>导出到文件(&amp;E)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="220"/>
        <source>Markdown…</source>
        <translation>Markdown…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="220"/>
        <source>Breakdown table (CSV)…</source>
        <translation>明细表（CSV）…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="224"/>
        <source>Comparison, image (PNG)…</source>
        <translation>对比，图片（PNG）…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="224"/>
        <source>Comparison (PDF)…</source>
        <translation>对比（PDF）…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="225"/>
        <source>Comparison table (Markdown)…</source>
        <translation>对比表（Markdown）…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="226"/>
        <source>Comparison table (CSV)…</source>
        <translation>对比表（CSV）…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="229"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="231"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="232"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="234"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="240"/>
        <source>&amp;Copy breakdown</source>
        <translation>复制明细(&amp;C)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="242"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="243"/>
        <source>&amp;Units</source>
        <translation>单位(&amp;U)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="252"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="255"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="255"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="260"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="268"/>
        <source>&amp;Estimator</source>
        <translation>估算器(&amp;E)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="275"/>
        <source>E&amp;ditor panel</source>
        <translation>编辑面板(&amp;D)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="282"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="283"/>
        <source>How the numbers are computed</source>
        <translation>数值是如何计算的</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="285"/>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="402"/>
        <source>Breakdown copied to the clipboard</source>
        <translation>明细已复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="219"/>
        <source>Plan card, image (PNG)…</source>
        <translation>计划卡片，图片（PNG）…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="219"/>
        <source>Plan card (PDF)…</source>
        <translation>计划卡片（PDF）…</translation>
    </message>
</context>
<context>
    <name>MegatronRows</name>
    <message>
        <location filename="../megatron_rows.py" line="34"/>
        <source>attention core</source>
        <translation>注意力核心</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="34"/>
        <source>MoE activation</source>
        <translation>MoE 激活函数</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="35"/>
        <source>norms</source>
        <translation>归一化层</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="35"/>
        <source>MLA up-projections</source>
        <translation>MLA 上投影</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="35"/>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="36"/>
        <source>MoE layer</source>
        <translation>MoE 层</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="36"/>
        <source>shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="38"/>
        <source>Megatron recompute_modules: what selective checkpointing rebuilds in the backward pass instead of keeping</source>
        <translation>Megatron recompute_modules：选择性检查点在反向传播中重新计算而不保留的部分</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="40"/>
        <source>Rebuilt in backward</source>
        <translation>反向时重新计算</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="43"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="45"/>
        <source>Megatron cpu_offloading_num_layers: decoder layers whose saved activations go to CPU memory</source>
        <translation>Megatron cpu_offloading_num_layers：保存的激活值移到 CPU 内存的解码层数</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="47"/>
        <source>Layers offloaded to CPU memory</source>
        <translation>卸载到 CPU 内存的层数</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="48"/>
        <source>embedding</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="48"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="49"/>
        <source>Megatron account_for_embedding/loss_in_pipeline_split: each counts as one layer, so the first or last stage builds one decoder layer fewer</source>
        <translation>Megatron account_for_embedding/loss_in_pipeline_split：各算作一层，因此第一个或最后一个阶段少建一个解码层</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="51"/>
        <source>Counted as a layer when splitting</source>
        <translation>划分流水线时算作一层</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="53"/>
        <source>all-to-all: each routed copy to its expert (alltoall)</source>
        <translation>all-to-all：每个路由副本发往其专家（alltoall）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="54"/>
        <source>all-gather: every rank&apos;s tokens to every rank (allgather)</source>
        <translation>all-gather：每个进程的词元发往所有进程（allgather）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="55"/>
        <source>DeepEP / HybridEP: once per node, then NVLink (flex)</source>
        <translation>DeepEP / HybridEP：每个节点发送一次，再经 NVLink 转发（flex）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="57"/>
        <source>MoE token dispatcher</source>
        <translation>MoE 词元分发器</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="58"/>
        <source>run each micro-batch&apos;s all-to-all beside another&apos;s compute</source>
        <translation>每个微批次的 all-to-all 与另一微批次的计算并行</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="59"/>
        <source>Megatron overlap_moe_expert_parallel_comm (combined 1F1B): one micro-batch&apos;s forward runs beside another&apos;s backward, layer by layer</source>
        <translation>Megatron overlap_moe_expert_parallel_comm（combined 1F1B）：一个微批次的前向与另一个微批次的反向逐层并行</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="61"/>
        <source>MoE all-to-all overlap</source>
        <translation>MoE all-to-all 重叠</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="62"/>
        <source>run the experts&apos; MLP as fused grouped ops</source>
        <translation>专家的 MLP 以融合分组算子运行</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="64"/>
        <source>Megatron-Core use_transformer_engine_op_fuser (Transformer Engine&apos;s fused grouped-MLP ops; Megatron-Bridge&apos;s cutedsl_fused_grouped_mlp recipes turn it on): the experts&apos; activation, its clamp and their biases run inside the fused ops instead of as separate element-wise kernels that read and write every routed token. It counts in the step time of models whose experts carry biases (gpt-oss), not in the memory estimate.</source>
        <translation>Megatron-Core use_transformer_engine_op_fuser（Transformer Engine 的融合分组 MLP 算子；Megatron-Bridge 的 cutedsl_fused_grouped_mlp 配方会打开它）：专家的激活函数、其截断（clamp）和偏置在融合算子内完成，而不是作为各自独立的逐元素内核、把每个路由后的 token 读写一遍。它只影响专家带偏置的模型（gpt-oss）的步时，不影响显存估算。</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="69"/>
        <source>MoE expert MLP</source>
        <translation>MoE 专家 MLP</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="70"/>
        <source>all local experts in one grouped GEMM</source>
        <translation>本卡所有专家合并为一次分组 GEMM</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="72"/>
        <source>Megatron --moe-grouped-gemm (NVIDIA&apos;s recipes turn it on; off by default in Megatron-LM): off, SequentialMLP runs one expert after another, and at expert parallelism 1 its loop copies every routed token several more times. It changes the step time, not the memory estimate.</source>
        <translation>Megatron --moe-grouped-gemm（NVIDIA 的配方会开启；Megatron-LM 默认关闭）：关闭时，SequentialMLP 逐个运行专家，且在专家并行度为 1 时，其循环会把每个路由后的 token 多复制几次。它影响单步时间，不影响显存估算。</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="75"/>
        <source>MoE expert GEMMs</source>
        <translation>MoE 专家 GEMM</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="76"/>
        <source>rotary embedding in one fused kernel</source>
        <translation>旋转位置编码用一个融合内核完成</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="78"/>
        <source>Megatron apply_rope_fusion (on unless --no-rope-fusion): off, Megatron-Core rotates the queries and keys with separate element-wise kernels that read and write them several more times, and keeps a cosine and a sine table per layer for the backward (4 x sequence x rotated head width elements).</source>
        <translation>Megatron apply_rope_fusion（除非传 --no-rope-fusion，否则开启）：关闭时，Megatron-Core 用多个独立的逐元素内核旋转 query 和 key，要多读写它们几遍，并且每层为反向保留一张余弦表和一张正弦表（4 × 序列长度 × 旋转部分的头宽 个元素）。</translation>
    </message>
    <message>
        <source>Megatron apply_rope_fusion (on unless --no-rope-fusion): off, Megatron-Core rotates the queries and keys with separate element-wise kernels that read and write them several more times. It changes the step time, not the memory estimate.</source>
        <translation type="vanished">Megatron apply_rope_fusion（除非传 --no-rope-fusion，否则开启）：关闭时，Megatron-Core 用多个独立的逐元素内核旋转 query 和 key，要多读写它们几遍。它影响单步时间，不影响显存估算。</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="81"/>
        <source>Rotary embedding (RoPE)</source>
        <translation>旋转位置编码（RoPE）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="83"/>
        <location filename="../megatron_rows.py" line="117"/>
        <source>as the framework does it (auto)</source>
        <translation>按框架的做法（auto）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="84"/>
        <source>none: every kernel launched on its own (none)</source>
        <translation>不使用：每个内核单独启动（none）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="85"/>
        <source>each MoE layer&apos;s router, its attention eager (moe-router)</source>
        <translation>每个 MoE 层的路由器，注意力不捕获（moe-router）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="86"/>
        <source>each layer&apos;s attention and MoE router (attention)</source>
        <translation>每层的注意力与 MoE 路由器（attention）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="87"/>
        <source>every transformer layer (layers)</source>
        <translation>每个 Transformer 层（layers）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="88"/>
        <source>the whole forward and backward (full-iteration)</source>
        <translation>整个前向与反向（full-iteration）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="91"/>
        <source>Megatron cuda_graph_scope: the captured parts replay as one graph launch instead of one launch per kernel, and captured MoE layers no longer wait for the CPU to read the token counts. It changes the step time where the CPU cannot keep the GPU busy (small layers, MoE), not the memory estimate.</source>
        <translation>Megatron cuda_graph_scope：被捕获的部分作为一次图启动重放，而不是每个内核启动一次；被捕获的 MoE 层也不再等待 CPU 读取 token 数。它在 CPU 跟不上 GPU 的情况下（小层、MoE）改变步时，不改变显存估算。</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="94"/>
        <source>CUDA graphs (captured parts)</source>
        <translation>CUDA 图（捕获的部分）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="96"/>
        <source>as the framework does it</source>
        <translation>按框架默认</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="97"/>
        <source>delayed scaling (amax history)</source>
        <translation>延迟缩放（amax 历史）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="98"/>
        <source>one scale per tensor, current (tensorwise)</source>
        <translation>每个张量一个当前缩放因子（tensorwise）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="99"/>
        <source>a scale per 32 values (MXFP8, Blackwell)</source>
        <translation>每 32 个值一个缩放因子（MXFP8，Blackwell）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="100"/>
        <source>a scale per 128 values (blockwise)</source>
        <translation>每 128 个值一个缩放因子（blockwise）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="101"/>
        <source>a scale per row of each operand (torchao rowwise)</source>
        <translation>每个操作数每行一个缩放因子（torchao rowwise）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="102"/>
        <source>rowwise, weight gradients in 16 bits (torchao rowwise_with_gw_hp)</source>
        <translation>按行缩放，权重梯度保持 16 位（torchao rowwise_with_gw_hp）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="105"/>
        <source>How fp8 training scales the operands of its matrix multiplications, in each library&apos;s own names: Transformer Engine&apos;s delayed, tensorwise, MXFP8 and blockwise (Megatron --fp8-recipe), torchao&apos;s rowwise and rowwise_with_gw_hp (torchtitan). Finer scales cost more casting time. It changes the step time, and the memory where the weights are kept in fp8 (fp8 weights): MXFP8 and blockwise keep a row-wise and a column-wise copy with their scales.</source>
        <translation>fp8 训练如何缩放矩阵乘法的操作数，采用各库自己的名称：Transformer Engine 的 delayed、tensorwise、MXFP8 和 blockwise（Megatron --fp8-recipe），torchao 的 rowwise 和 rowwise_with_gw_hp（torchtitan）。缩放粒度越细，类型转换耗时越多。它影响步时；只有在权重以 fp8 保存时（fp8 权重）才影响显存：MXFP8 和 blockwise 会保留按行和按列两份副本及其缩放因子。</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="111"/>
        <source>FP8 scaling recipe</source>
        <translation>FP8 缩放方案</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="112"/>
        <source>kept in fp8, no 16-bit copy</source>
        <translation>以 fp8 存放，不保留 16 位副本</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="113"/>
        <source>Megatron --fp8-param-gather: the layers&apos; linear weights are stored and gathered in fp8 (Megatron-Bridge&apos;s fp8 recipes turn it on)</source>
        <translation>Megatron --fp8-param-gather：各层的线性层权重以 fp8 存放并以 fp8 聚合（Megatron-Bridge 的 fp8 配方默认开启）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="115"/>
        <source>Layer weights</source>
        <translation>层权重</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="118"/>
        <source>gathered in fp8: each shard cast before the all-gather (on)</source>
        <translation>以 fp8 收集：每个分片在 all-gather 前转换（开）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="119"/>
        <source>gathered in 16 bits, cast after the all-gather (off)</source>
        <translation>以 16 位收集，all-gather 后再转换（关）</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="122"/>
        <source>torchao enable_fsdp_float8_all_gather: FSDP2 gathers the fp8 linear layers&apos; weights in 1 byte instead of 2, halving that traffic, and casts only its own shard (OLMo-core turns it on, torchtitan leaves it off). Tensorwise scaling only; MoE experts are not gathered this way.</source>
        <translation>torchao enable_fsdp_float8_all_gather：FSDP2 以 1 字节而非 2 字节收集 fp8 线性层的权重，这部分通信减半，并且只转换自己的分片（OLMo-core 默认开启，torchtitan 默认关闭）。仅适用于 tensorwise 缩放；MoE 专家不以此方式收集。</translation>
    </message>
    <message>
        <location filename="../megatron_rows.py" line="125"/>
        <source>FP8 weight all-gather (FSDP2)</source>
        <translation>FP8 权重 all-gather（FSDP2）</translation>
    </message>
</context>
<context>
    <name>ModeSwitch</name>
    <message>
        <location filename="../serve_mode.py" line="30"/>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="31"/>
        <source>Serve</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="32"/>
        <source>Plan training or fine-tuning: weights, gradients, optimizer states, activations</source>
        <translation>规划训练或微调：权重、梯度、优化器状态、激活</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="34"/>
        <source>Plan serving with an inference engine: weights, KV cache, users at once</source>
        <translation>规划用推理引擎提供服务：权重、KV 缓存、同时服务的用户</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <location filename="../pickers.py" line="283"/>
        <source>Inference cache (bf16, GQA-aware): %(tokens)s per 1,000 tokens of one sequence in its attention layers, plus %(fixed)s a sequence whatever its length (the fixed state of its Mamba-2 or DeltaNet layers)</source>
        <translation>推理缓存（bf16，已考虑 GQA）：注意力层中每条序列每 1,000 个 token 占 %(tokens)s，另加每条序列固定的 %(fixed)s，与长度无关（其 Mamba-2 或 DeltaNet 层的固定状态）</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="162"/>
        <location filename="../pickers.py" line="166"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="166"/>
        <source>Params</source>
        <translation>参数量</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="166"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="167"/>
        <source>Search models (e.g. llama 8b, qwen3, moe)</source>
        <translation>搜索模型（如 llama 8b、qwen3、moe）</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="176"/>
        <source>Import config.json…</source>
        <translation>导入 config.json…</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="177"/>
        <source>Add a model from a local Hugging Face config.json</source>
        <translation>从本地 Hugging Face config.json 添加模型</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="178"/>
        <source>Rescan</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="210"/>
        <source>Looking for models on this computer…</source>
        <translation>正在查找本机上的模型…</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="179"/>
        <source>Look again for models in the Hugging Face cache and your folders</source>
        <translation>重新在 Hugging Face 缓存和你的文件夹中查找模型</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="180"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="181"/>
        <source>A folder with models (each with a config.json) to list under &quot;On this computer&quot;</source>
        <translation>一个包含模型（每个都有 config.json）的文件夹，列在“本机上的模型”下</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="231"/>
        <location filename="../pickers.py" line="239"/>
        <source>Model: %s</source>
        <translation>模型：%s</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="268"/>
        <source>, %s active per token</source>
        <translation>，每个 token 激活 %s</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="269"/>
        <source>; %(e)d experts, top-%(k)d</source>
        <translation>；%(e)d 个专家，top-%(k)d</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="297"/>
        <source>; blocks: %(m)d Mamba-2, %(a)d attention, %(f)d MLP / MoE</source>
        <translation>；块：%(m)d 个 Mamba-2、%(a)d 个注意力、%(f)d 个 MLP / MoE</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="301"/>
        <source>; %(n)d of them gated DeltaNet (linear attention)</source>
        <translation>；其中 %(n)d 层为门控 DeltaNet（线性注意力）</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="273"/>
        <source>&lt;b&gt;%(name)s&lt;/b&gt;: %(params)s parameters%(active)s; %(layers)d layers, hidden %(hidden)d, %(heads)d heads (%(kv)d KV)%(moe)s; vocabulary %(vocab)s; context %(ctx)s tokens</source>
        <translation>&lt;b&gt;%(name)s&lt;/b&gt;：%(params)s 参数%(active)s；%(layers)d 层，隐藏维度 %(hidden)d，%(heads)d 个注意力头（%(kv)d 个 KV 头）%(moe)s；词表 %(vocab)s；上下文 %(ctx)s 个 token</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="287"/>
        <source>Inference KV cache (bf16, GQA-aware): %s per 1,000 tokens of one sequence</source>
        <translation>推理 KV 缓存（bf16，已考虑 GQA）：每条序列每 1,000 个 token 占 %s</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <location filename="../widgets.py" line="311"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../widgets.py" line="314"/>
        <source>Hide this message</source>
        <translation>隐藏此消息</translation>
    </message>
</context>
<context>
    <name>OffloadFractionRow</name>
    <message>
        <location filename="../offload_fraction_row.py" line="42"/>
        <source>all of it, master weights too (0)</source>
        <translation>全部，连同主权重 (0)</translation>
    </message>
    <message>
        <location filename="../offload_fraction_row.py" line="44"/>
        <source>Megatron-Core optimizer_offload_fraction (--optimizer-cpu-offload --optimizer-offload-fraction): the share of each rank&apos;s optimizer shard whose Adam moments live in CPU memory and are stepped there by torch&apos;s fused CPU AdamW, one thread per rank; the fp32 master weights and gradients stay on the GPU. Each 0.25 frees a quarter of the moments and adds a quarter of the CPU step&apos;s time. 0 keeps the planner&apos;s whole-optimizer offload (DeepSpeed&apos;s ZeRO-Offload), which Megatron does not have.</source>
        <translation>Megatron-Core optimizer_offload_fraction（--optimizer-cpu-offload --optimizer-offload-fraction）：每个 rank 的优化器分片中，Adam 动量放在 CPU 内存、并由 torch 的融合 CPU AdamW 在那里更新的比例，每个 rank 一个线程；fp32 主权重和梯度留在 GPU 上。每增加 0.25 就释放四分之一的动量，并增加四分之一的 CPU 更新时间。0 表示规划器的整个优化器卸载（DeepSpeed 的 ZeRO-Offload），Megatron 没有这种方式。</translation>
    </message>
    <message>
        <location filename="../offload_fraction_row.py" line="51"/>
        <source>Optimizer share on the CPU</source>
        <translation>放到 CPU 上的优化器比例</translation>
    </message>
</context>
<context>
    <name>PackingRows</name>
    <message>
        <location filename="../packing_rows.py" line="44"/>
        <source>each sequence padded (none)</source>
        <translation>每条序列单独填充（none）</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="45"/>
        <source>sequences back to back, no padding (padding-free)</source>
        <translation>序列首尾相接，不填充（padding-free）</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="46"/>
        <source>whole sequences packed into rows of the sequence length (packed)</source>
        <translation>整条序列打包成序列长度的行（packed）</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="49"/>
        <source>no budget (0)</source>
        <translation>不设上限（0）</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="55"/>
        <source>Sequence packing (packing)</source>
        <translation>序列打包（packing）</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="56"/>
        <source>Tokens per micro-batch (max_tokens_per_micro_batch)</source>
        <translation>每个微批次的 token 数（max_tokens_per_micro_batch）</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="58"/>
        <source>Spread of a sequence&apos;s tokens (sequence_len_std)</source>
        <translation>序列词元数的标准差（sequence_len_std）</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="61"/>
        <source>How a micro-batch&apos;s sequences are laid out. none: each is padded to the sequence length (post-training: to the batch&apos;s longest prompt plus completion). padding-free: the sequences run back to back in one row without padding (TRL / ms-swift padding_free, verl use_remove_padding), so memory and time follow the real tokens. packed: whole sequences are packed into rows of the sequence length (TRL packing, axolotl sample_packing).</source>
        <translation>微批次中序列的排布方式。none：每条序列填充到序列长度（后训练：填充到该批最长的提示加补全）。padding-free：序列在一行中首尾相接、不填充（TRL / ms-swift padding_free，verl use_remove_padding），显存和时间按真实 token 计。packed：整条序列打包进序列长度的行（TRL packing，axolotl sample_packing）。</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="67"/>
        <source>The most tokens one micro-batch holds when sequences are padding-free or packed (verl actor.ppo_max_token_len_per_gpu with use_dynamic_bsz). verl cuts each GPU&apos;s mini-batch of micro-batch sequences into ceil(tokens / budget) micro-batches of about equal tokens: a smaller budget needs less activation and logits memory and runs more, smaller micro-batches. It must hold one whole sequence. 0: no budget, a micro-batch holds micro-batch × sequence tokens.</source>
        <translation>序列不填充或打包时一个微批次最多容纳的 token 数（verl 开启 use_dynamic_bsz 时的 actor.ppo_max_token_len_per_gpu）。verl 把每块 GPU 上由“微批次”条序列组成的小批次切成 ceil(token 数 / 上限) 个 token 数大致相等的微批次：上限越小，激活和 logits 显存越少，微批次越多越小。上限至少要装下一整条序列。0：不设上限，一个微批次容纳 微批次 × 序列 个 token。</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="73"/>
        <source>How much one sequence&apos;s length (prompt + completion, without padding) varies over a step: its standard deviation in tokens, as a run&apos;s log gives it (verl: global_seqlen/minmax_diff). With padding-free micro-batches under ZeRO-3 / FSDP every GPU waits for the one holding the most tokens, and that wait grows with the spread (Time and cost: &apos;waiting for the rank with the most tokens&apos;). Unset, it is assumed from the mean and the longest completion.</source>
        <translation>一步中单条序列长度（提示 + 补全，不含填充）的波动：其 token 数的标准差，取自运行日志（verl：global_seqlen/minmax_diff）。在 ZeRO-3 / FSDP 下使用不填充的微批次时，每块 GPU 都要等待 token 最多的那一块，等待随标准差增大（时间与费用：“更新阶段的微批次等待 token 最多的 rank”）。未设置时按平均和最长补全长度估计。</translation>
    </message>
    <message>
        <location filename="../packing_rows.py" line="92"/>
        <source>assumed from the completions (%1)</source>
        <translation>按补全长度估计（%1）</translation>
    </message>
</context>
<context>
    <name>ParallelLimits</name>
    <message>
        <location filename="../parallel_limits.py" line="88"/>
        <source>1F1B: one forward, one backward</source>
        <translation>1F1B：一次前向、一次反向</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="89"/>
        <source>interleaved 1F1B: several layer chunks per GPU</source>
        <translation>交错 1F1B：每个 GPU 持有多个层块</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="90"/>
        <source>GPipe: all forwards, then all backwards</source>
        <translation>GPipe：先做完所有前向，再做所有反向</translation>
    </message>
    <message>
        <source>How the pipeline stages take turns. 1F1B keeps at most one micro-batch per stage in flight; interleaved 1F1B gives each GPU several smaller chunks of layers, which shrinks the idle bubble for more communication; GPipe runs every forward first and keeps every micro-batch&apos;s activations.</source>
        <translation type="vanished">流水线各阶段如何轮流执行。1F1B 每个阶段最多只有一个 micro-batch 在途；交错 1F1B 让每个 GPU 持有若干较小的层块，以更多通信换取更小的空闲气泡；GPipe 先做完所有前向，并保存每个 micro-batch 的激活。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="91"/>
        <source>zero bubble ZB-1p: 1F1B&apos;s memory</source>
        <translation>零气泡 ZB-1p：与 1F1B 相同的显存</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="92"/>
        <source>zero bubble ZB-2p: about twice the activations</source>
        <translation>零气泡 ZB-2p：约两倍的激活</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="93"/>
        <source>zero bubble ZB-V: two layer chunks per GPU in a V, 1F1B&apos;s memory</source>
        <translation>零气泡 ZB-V：每个 GPU 两个层块，呈 V 形排布，1F1B 的显存</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="107"/>
        <source>How the pipeline stages take turns. 1F1B keeps at most one micro-batch per stage in flight; interleaved 1F1B gives each GPU several smaller chunks of layers, which shrinks the idle bubble for more communication; GPipe runs every forward first and keeps every micro-batch&apos;s activations. The zero-bubble schedules (arXiv:2401.10241; the Zero Bubble fork of Megatron-LM, AMD Primus) run each backward&apos;s weight gradients later, in the idle gaps: ZB-1p within 1F1B&apos;s memory leaves about a third of its bubble, ZB-2p keeps up to twice the micro-batches in flight and leaves almost none; ZB-V gives each GPU two chunks in a V (the first GPU holds the first and the last, so the embedding and the head) and leaves almost none within 1F1B&apos;s memory, for twice the sends.</source>
        <translation>流水线各阶段如何轮流执行。1F1B 每个阶段最多只有一个微批次在途；交错 1F1B 让每个 GPU 持有若干较小的层块，以更多通信换取更小的空闲气泡；GPipe 先做完所有前向，并保存每个微批次的激活。零气泡调度（arXiv:2401.10241；Megatron-LM 的 Zero Bubble 分支、AMD Primus）把每次反向中的权重梯度推迟到空闲间隙里计算：ZB-1p 在 1F1B 的显存内只留下约三分之一的气泡，ZB-2p 最多让两倍的微批次在途，几乎不留气泡；ZB-V 让每个 GPU 持有呈 V 形排布的两个层块（第一个 GPU 持有第一块和最后一块，即嵌入层和输出头），在 1F1B 的显存内几乎不留气泡，代价是两倍的发送。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="117"/>
        <source>Model chunks each GPU holds with the interleaved schedule (Megatron --num-layers-per-virtual-pipeline-stage): more chunks, a smaller bubble.</source>
        <translation>交错调度下每个 GPU 持有的模型块数（Megatron --num-layers-per-virtual-pipeline-stage）：块越多，气泡越小。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="141"/>
        <source>%1 has no tensor parallelism: this stays at 1.</source>
        <translation>%1 没有张量并行：此项保持为 1。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="142"/>
        <source>%1 has no pipeline parallelism: the layers cannot be split into stages, so this stays at 1.</source>
        <translation>%1 没有流水线并行：无法把各层分成多个阶段，因此此项保持为 1。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="144"/>
        <source>%1 has no ring context parallelism: this stays at 1.</source>
        <translation>%1 没有环形上下文并行：此项保持为 1。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="145"/>
        <source>%1 has no expert parallelism: every GPU keeps every expert, so this stays at 1.</source>
        <translation>%1 没有专家并行：每个 GPU 都保存全部专家，因此此项保持为 1。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="150"/>
        <source>1 — not in this framework</source>
        <translation>1 — 此框架不支持</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="152"/>
        <source>%1 runs no %2 with %3: this stays at 1.</source>
        <translation>%1 在 %3 下不支持%2：此项保持为 1。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="153"/>
        <source>tensor parallelism</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="153"/>
        <source>pipeline parallelism</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="154"/>
        <source>ring context parallelism</source>
        <translation>环形上下文并行</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="154"/>
        <source>expert parallelism</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="156"/>
        <source>1 — not with %1</source>
        <translation>1 — %1 下不可用</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="158"/>
        <source>Expert parallelism needs a mixture-of-experts model.</source>
        <translation>专家并行需要混合专家（MoE）模型。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="159"/>
        <source>1 — the model has no experts</source>
        <translation>1 — 该模型没有专家</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="173"/>
        <source>%1 runs only this pipeline schedule (%2).</source>
        <translation>%1 只支持这一种流水线调度（%2）。</translation>
    </message>
    <message>
        <location filename="../parallel_limits.py" line="185"/>
        <location filename="../parallel_limits.py" line="204"/>
        <source>⚠ %1 — this framework cannot run it</source>
        <translation>⚠ %1 — 此框架无法运行</translation>
    </message>
</context>
<context>
    <name>PhaseChart</name>
    <message>
        <location filename="../phase_chart.py" line="34"/>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="35"/>
        <source>Scoring</source>
        <translation>打分</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="36"/>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="37"/>
        <source>Critic training</source>
        <translation>评论家训练</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="38"/>
        <source>Weight sync</source>
        <translation>权重同步</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="59"/>
        <source>%s (engine GPUs)</source>
        <translation>%s（引擎 GPU）</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="128"/>
        <source>capacity %s</source>
        <translation>容量 %s</translation>
    </message>
    <message>
        <source>One step per GPU, phase by phase; the largest (%(phase)s, %(bytes)s allocated) is the estimate. Hatched: %(context)s, fragmentation and reserve (%(over)s). Hover a segment for its formula.</source>
        <translation type="vanished">每块 GPU 上的一步，按阶段列出；最大的阶段（%(phase)s，已分配 %(bytes)s）即为估算结果。斜线：%(context)s、碎片和安全预留（%(over)s）。悬停在某一段上可查看其公式。</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="145"/>
        <source>One step per GPU, phase by phase; the largest (%(phase)s, %(bytes)s allocated) is the estimate. Hatched: %(context)s, fragmentation and reserve (%(over)s).</source>
        <translation>每块 GPU 上的一步，按阶段列出；最大的阶段（%(phase)s，已分配 %(bytes)s）即为估算结果。斜线：%(context)s、碎片和安全预留（%(over)s）。</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="149"/>
        <source>None on the engine&apos;s GPUs.</source>
        <translation>引擎 GPU 上没有。</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="150"/>
        <source>Hover a segment for its formula.</source>
        <translation>悬停在某一段上可查看其公式。</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="182"/>
        <source>Overheads and safety reserve</source>
        <translation>开销和安全预留</translation>
    </message>
    <message>
        <location filename="../phase_chart.py" line="183"/>
        <source>as at the peak phase</source>
        <translation>按峰值阶段计</translation>
    </message>
</context>
<context>
    <name>PlanCard</name>
    <message>
        <location filename="../plan_card.py" line="56"/>
        <source>Plan card · LLM Memory Planner %(version)s · %(date)s</source>
        <translation>计划卡片 · LLM Memory Planner %(version)s · %(date)s</translation>
    </message>
    <message>
        <location filename="../plan_card.py" line="57"/>
        <source>%(used)s of %(cap)s on each GPU · %(room)s</source>
        <translation>每块 GPU 已用 %(used)s / %(cap)s · %(room)s</translation>
    </message>
    <message>
        <location filename="../plan_card.py" line="58"/>
        <source>%(used)s of %(cap)s on each training GPU, %(engine_used)s on each generation engine GPU · %(room)s</source>
        <translation>每块训练 GPU 已用 %(used)s / %(cap)s，每块生成引擎 GPU 已用 %(engine_used)s · %(room)s</translation>
    </message>
    <message>
        <location filename="../plan_card.py" line="60"/>
        <source>Time and cost</source>
        <translation>时间与费用</translation>
    </message>
    <message>
        <location filename="../plan_card.py" line="61"/>
        <source>Inputs that differ from the defaults</source>
        <translation>与默认值不同的输入</translation>
    </message>
</context>
<context>
    <name>PrecisionMarks</name>
    <message>
        <location filename="../precision_marks.py" line="22"/>
        <source>NVFP4: the decoder layers&apos; linear GEMMs (forward, input and weight gradients) in 4-bit NVFP4, blocks of 16 values with an fp8 scale each (Transformer Engine&apos;s NVFP4BlockScaling, Megatron-Bridge&apos;s nvfp4 recipe); attention and the rest in bf16, fp32 master weights and optimizer states. Blackwell GPUs only.</source>
        <translation>NVFP4：解码器各层线性层的 GEMM（前向、输入梯度和权重梯度）以 4 位 NVFP4 计算，每 16 个值为一块，各带一个 fp8 缩放因子（Transformer Engine 的 NVFP4BlockScaling，Megatron-Bridge 的 nvfp4 方案）；注意力及其余部分用 bf16，主权重和优化器状态用 fp32。仅限 Blackwell GPU。</translation>
    </message>
    <message>
        <location filename="../precision_marks.py" line="32"/>
        <source>%1 has no NVFP4 tensor cores: NVFP4 training needs an NVIDIA Blackwell GPU.</source>
        <translation>%1 没有 NVFP4 张量核心：NVFP4 训练需要 NVIDIA Blackwell GPU。</translation>
    </message>
</context>
<context>
    <name>PriceTable</name>
    <message>
        <location filename="../rent_panel.py" line="58"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="58"/>
        <source>Price per
GPU-hour</source>
        <translation>每 GPU 小时
价格</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation type="vanished">每 GPU 小时价格</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="99"/>
        <source>Not a price (a number above 0), so left out: %s</source>
        <translation>不是价格（须为大于 0 的数），已略去：%s</translation>
    </message>
</context>
<context>
    <name>RLRows</name>
    <message>
        <source>Supervised fine-tuning (SFT)</source>
        <translation type="vanished">监督微调（SFT）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="93"/>
        <source>Preference pairs: DPO</source>
        <translation>偏好对：DPO</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="94"/>
        <source>Preference pairs: IPO</source>
        <translation>偏好对：IPO</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="95"/>
        <source>Liked / disliked answers: KTO</source>
        <translation>喜欢 / 不喜欢的回答：KTO</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="96"/>
        <source>Preference pairs, no reference: ORPO</source>
        <translation>偏好对，无参考模型：ORPO</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="97"/>
        <source>Preference pairs, no reference: SimPO</source>
        <translation>偏好对，无参考模型：SimPO</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="98"/>
        <source>Preference pairs, no reference: CPO</source>
        <translation>偏好对，无参考模型：CPO</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="99"/>
        <source>Train a reward model on pairs</source>
        <translation>用偏好对训练奖励模型</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="100"/>
        <source>Reinforcement learning: PPO (with a critic)</source>
        <translation>强化学习：PPO（带评论家）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="101"/>
        <source>Reinforcement learning: GRPO (groups of completions)</source>
        <translation>强化学习：GRPO（成组的回答）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="102"/>
        <source>Reinforcement learning: RLOO</source>
        <translation>强化学习：RLOO</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="103"/>
        <source>Online DPO (generated pairs)</source>
        <translation>在线 DPO（生成的回答对）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="105"/>
        <source>Objective (training objective)</source>
        <translation>目标（训练目标）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="107"/>
        <source>as the objective and framework do it (auto)</source>
        <translation>按目标和框架的做法（自动）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="108"/>
        <source>a frozen copy on the GPU (separate)</source>
        <translation>GPU 上的一份冻结副本（独立）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="109"/>
        <source>the base with adapters switched off (LoRA)</source>
        <translation>关闭适配器的基础模型（LoRA）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="110"/>
        <source>log-probs computed before training (precomputed)</source>
        <translation>训练前算好的对数概率（预计算）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="111"/>
        <location filename="../rl_rows.py" line="121"/>
        <location filename="../rl_rows.py" line="354"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="134"/>
        <source>no entropy bonus (0)</source>
        <translation>无熵奖励（0）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="140"/>
        <source>no NLL term (0)</source>
        <translation>无 NLL 项（0）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="269"/>
        <source>Weight of the chosen answers&apos; negative log-likelihood added to the preference loss (TRL&apos;s rpo_alpha; CPO/SimPO&apos;s cpo_alpha, 1.0 by default). Where the framework computes it from the logits, the step keeps a second log-softmax of the chosen half (half the logits&apos; size) until the backward pass, which then holds one more logits-sized gradient. How large the weight is does not change the memory.</source>
        <translation>加到偏好损失上的被选回答负对数似然的权重（TRL 的 rpo_alpha；CPO/SimPO 的 cpo_alpha，默认 1.0）。若框架从 logits 计算该项，则这一步会保留被选一半的第二份 log-softmax（logits 大小的一半）直到反向传播，反向时还会多持有一个与 logits 同样大小的梯度。权重大小不影响内存。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="142"/>
        <location filename="../rl_rows.py" line="152"/>
        <location filename="../rl_rows.py" line="154"/>
        <location filename="../rl_rows.py" line="177"/>
        <location filename="../rl_rows.py" line="180"/>
        <source>the framework&apos;s default (auto)</source>
        <translation>框架的默认值（自动）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="92"/>
        <source>Pre-training or supervised fine-tuning (SFT)</source>
        <translation>预训练或监督微调（SFT）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="121"/>
        <source>as the policy&apos;s offload (auto)</source>
        <translation>与策略模型的卸载相同（auto）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="122"/>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="122"/>
        <source>optimizer states and weights</source>
        <translation>优化器状态和权重</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="124"/>
        <source>as the policy&apos;s packing (auto)</source>
        <translation>与策略模型的打包相同（auto）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="125"/>
        <source>padded to the batch&apos;s longest (none)</source>
        <translation>填充到批次中最长的长度（none）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="126"/>
        <source>each sequence at its own length (padding-free)</source>
        <translation>每条序列按自身长度（padding-free）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="145"/>
        <source>the trainer&apos;s own generate (none)</source>
        <translation>训练器自带的 generate（无）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="155"/>
        <source>stays resident (none)</source>
        <translation>常驻显存（无）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="156"/>
        <source>weights to CPU memory, KV cache freed (level 1)</source>
        <translation>权重移到 CPU 内存，释放 KV 缓存（级别 1）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="157"/>
        <source>weights and KV cache freed (level 2)</source>
        <translation>释放权重和 KV 缓存（级别 2）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="160"/>
        <source>on the training GPUs (colocate)</source>
        <translation>在训练 GPU 上（共置）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="161"/>
        <source>on GPUs of its own (separate)</source>
        <translation>在它自己的 GPU 上（独立）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="166"/>
        <source>the model&apos;s number format (auto)</source>
        <translation>模型的数值格式（自动）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="166"/>
        <source>bf16: 2 bytes a value</source>
        <translation>bf16：每个值 2 字节</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="167"/>
        <source>fp16: 2 bytes a value</source>
        <translation>fp16：每个值 2 字节</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="167"/>
        <source>fp8: 1 byte a value, twice the tokens</source>
        <translation>fp8：每个值 1 字节，token 数翻倍</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="172"/>
        <source>the newest vLLM (latest)</source>
        <translation>最新的 vLLM（latest）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="173"/>
        <source>vLLM 0.8, V0 engine</source>
        <translation>vLLM 0.8，V0 引擎</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="174"/>
        <source>vLLM 0.8, V1 engine</source>
        <translation>vLLM 0.8，V1 引擎</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="177"/>
        <source>captures CUDA graphs</source>
        <translation>捕获 CUDA 图</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="178"/>
        <source>no CUDA graphs (enforce_eager)</source>
        <translation>不使用 CUDA 图（enforce_eager）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="180"/>
        <source>in the trainer&apos;s process (vllm.LLM)</source>
        <translation>在训练器的进程中（vllm.LLM）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="181"/>
        <source>a process of its own (AsyncLLM)</source>
        <translation>独立进程（AsyncLLM）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="199"/>
        <source>Reference (reference model)</source>
        <translation>参考（参考模型）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="200"/>
        <source>Tokens per prompt (prompt length)</source>
        <translation>每个提示的 token 数（提示长度）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="201"/>
        <source>Mean prompt without padding (prompt_len_mean)</source>
        <translation>去除填充后的平均提示长度（prompt_len_mean）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="202"/>
        <source>Tokens per completion (completion length)</source>
        <translation>每个回答的 token 数（回答长度）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="203"/>
        <source>Longest completion (max_completion_len)</source>
        <translation>最长补全（max_completion_len）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="204"/>
        <source>Completions per prompt (generations)</source>
        <translation>每个提示的回答数（生成数）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="205"/>
        <source>Reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="206"/>
        <source>Critic (value model)</source>
        <translation>评论家（价值模型）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="207"/>
        <source>Critic offloaded to CPU memory (critic_offload)</source>
        <translation>评论家卸载到 CPU 内存（critic_offload）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="208"/>
        <source>Critic&apos;s sequences (critic_packing)</source>
        <translation>评论家的序列（critic_packing）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="209"/>
        <source>Entropy bonus weight (entropy_coeff)</source>
        <translation>熵奖励权重（entropy_coeff）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="210"/>
        <source>Chosen answers&apos; NLL weight (rpo_alpha)</source>
        <translation>被选回答的 NLL 权重（rpo_alpha）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="211"/>
        <source>Generation engine (rollout engine)</source>
        <translation>生成引擎（rollout 引擎）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="212"/>
        <source>Engine&apos;s share of each GPU (gpu_memory_utilization)</source>
        <translation>引擎占每块 GPU 的比例（gpu_memory_utilization）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="213"/>
        <source>Engine while training (sleep mode)</source>
        <translation>训练期间的引擎（休眠模式）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="214"/>
        <source>Engine placement</source>
        <translation>引擎放置</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="215"/>
        <source>GPUs of the engine (rollout GPUs)</source>
        <translation>引擎的 GPU（rollout GPU）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="216"/>
        <source>Engine tensor parallel (rollout TP)</source>
        <translation>引擎张量并行（rollout TP）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="217"/>
        <source>Engine KV cache format</source>
        <translation>引擎 KV 缓存格式</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="218"/>
        <source>Sequences generated at once (max_num_seqs)</source>
        <translation>同时生成的序列数（max_num_seqs）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="219"/>
        <source>Longest request (max_model_len)</source>
        <translation>最长请求（max_model_len）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="220"/>
        <source>vLLM release (start-up accounting)</source>
        <translation>vLLM 版本（启动时的显存核算）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="221"/>
        <source>Engine without CUDA graphs (enforce_eager)</source>
        <translation>引擎不使用 CUDA 图（enforce_eager）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="222"/>
        <source>Engine as vLLM&apos;s AsyncLLM (async_engine)</source>
        <translation>引擎以 vLLM 的 AsyncLLM 运行（async_engine）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="231"/>
        <source>What the step optimises. Preference objectives run a chosen and a rejected answer through the model; reinforcement learning also generates completions every step, usually with a generation engine (vLLM) sharing the GPUs.</source>
        <translation>这一步优化的目标。偏好目标把选中的和被拒的回答都送进模型；强化学习每一步还要生成回答，通常由共用 GPU 的生成引擎（vLLM）完成。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="234"/>
        <source>The frozen model the loss compares against. A separate copy costs a second set of weights; with LoRA the base with adapters off costs nothing extra; precomputed log-probs cost one pass over the data before training.</source>
        <translation>损失函数用来比较的冻结模型。独立副本要多占一份权重；用 LoRA 时关闭适配器的基础模型不额外占用；预计算对数概率要在训练前把数据过一遍。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="237"/>
        <source>Tokens in each prompt. With the completion they make each sequence.</source>
        <translation>每个提示的 token 数，与回答合起来构成每条序列。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="238"/>
        <source>Tokens in each completion (generated, or stored for preference data). The engine&apos;s KV cache and the log-prob tensors grow with it.</source>
        <translation>每个回答的 token 数（生成的，或偏好数据中存好的）。引擎的 KV 缓存和对数概率张量随之增长。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="240"/>
        <source>Tokens of the longest completion a step generates (verl data.max_response_length, TRL max_completion_length). The engine decodes until the batch&apos;s longest completion ends, one token an iteration; the tokens generated and trained on follow the completion length, which is then the mean. Unset, every completion is as long as the completion length.</source>
        <translation>每步生成的最长补全的 token 数（verl data.max_response_length，TRL max_completion_length）。引擎每次迭代解码一个 token，一直解码到这批中最长的补全结束；生成和训练的 token 数则按补全长度计算，此时补全长度是平均值。不设置时，每个补全都与补全长度一样长。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="246"/>
        <source>Completions generated for each prompt (GRPO&apos;s group size). More completions: more sequences to generate, score and train on.</source>
        <translation>每个提示生成的回答数（GRPO 的组大小）。回答越多，要生成、打分和训练的序列越多。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="248"/>
        <source>What scores the completions: rule or verifier rewards need no model; a reward model adds its weights and a forward pass over every completion.</source>
        <translation>给回答打分的方式：规则或验证器奖励不需要模型；奖励模型会增加它的权重以及对每个回答的一次前向计算。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="250"/>
        <source>PPO&apos;s value model: its weights, gradients and optimizer states sit beside the policy&apos;s.</source>
        <translation>PPO 的价值模型：它的权重、梯度和优化器状态与策略模型的并存。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="252"/>
        <source>What of the critic goes to CPU memory between its uses (verl critic.model.fsdp_config param_offload / optimizer_offload), when it is set apart from the policy&apos;s offload.</source>
        <translation>评论家在两次使用之间有哪些部分移到 CPU 内存（verl critic.model.fsdp_config 的 param_offload / optimizer_offload），用于与策略模型的卸载分开设置时。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="255"/>
        <source>How the critic lays out its sequences (verl critic.model.use_remove_padding, off by default): padded, every sequence is as long as the batch&apos;s longest prompt plus completion; padding-free, each runs at its own length, which costs less memory and time.</source>
        <translation>评论家如何排布其序列（verl critic.model.use_remove_padding，默认关闭）：填充时，每条序列都与批次中最长的提示加补全一样长；无填充时，每条序列按自身长度运行，占用的显存和时间更少。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="259"/>
        <source>Tokens of the average prompt before padding, where the prompt length is the cap every prompt is padded to (verl data.max_prompt_length). The engine generates after the real prompt, and padding-free passes run its real tokens. Unset, every prompt is as long as the prompt length.</source>
        <translation>填充前平均提示的 token 数，此时提示长度是每个提示被填充到的上限（verl data.max_prompt_length）。生成引擎在真实提示之后生成，无填充的前向/反向按真实 token 运行。不设置时，每个提示都与提示长度一样长。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="263"/>
        <source>Weight of the entropy bonus in the policy loss (verl actor.entropy_coeff). Any value but 0 makes verl&apos;s update compute every token&apos;s entropy over the vocabulary with gradients: one more fp32 buffer the size of the logits (tokens × vocabulary × 4 bytes) in the forward and one more logits-sized gradient in the backward. How large the weight is does not change the memory.</source>
        <translation>策略损失中熵奖励的权重（verl actor.entropy_coeff）。任何非 0 的值都会让 verl 的更新步带梯度地计算每个 token 在整个词表上的熵：前向多一个与 logits 同样大小的 fp32 缓冲区（token 数 × 词表大小 × 4 字节），反向多一个 logits 大小的梯度。权重的大小本身不影响显存。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="275"/>
        <source>What generates the completions. vLLM and SGLang keep their own copy of the weights and a KV cache; the trainer&apos;s own generate is much slower.</source>
        <translation>生成回答的程序。vLLM 和 SGLang 各自保留一份权重和 KV 缓存；训练器自带的 generate 要慢得多。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="277"/>
        <source>The share of each GPU&apos;s memory the engine may take for its weights, activations and KV cache (vLLM&apos;s gpu_memory_utilization). Colocated with training, whatever it takes is missing for the training step.</source>
        <translation>引擎可用于权重、激活和 KV 缓存的每块 GPU 显存比例（vLLM 的 gpu_memory_utilization）。与训练共置时，它占用的部分训练步骤就用不了。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="280"/>
        <source>Whether the engine gives its memory back while the model trains (vLLM sleep mode): level 1 moves its weights to CPU memory and frees the KV cache; level 2 frees both. Waking it costs a little time every step.</source>
        <translation>模型训练时引擎是否归还显存（vLLM 休眠模式）：级别 1 把权重移到 CPU 内存并释放 KV 缓存；级别 2 两者都释放。每一步唤醒它都要花一点时间。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="283"/>
        <source>Colocated, the engine shares the training GPUs; on GPUs of its own it needs more GPUs but leaves the training GPUs alone.</source>
        <translation>共置时引擎与训练共用 GPU；放在它自己的 GPU 上需要更多 GPU，但不占训练 GPU。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="285"/>
        <source>How many GPUs run the engine when it has GPUs of its own.</source>
        <translation>引擎有自己的 GPU 时，运行它的 GPU 数量。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="286"/>
        <source>Split the engine&apos;s weights over this many GPUs.</source>
        <translation>把引擎的权重切分到这么多块 GPU 上。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="287"/>
        <source>Number format of the engine&apos;s KV cache: fp8 holds twice the tokens of bf16.</source>
        <translation>引擎 KV 缓存的数值格式：fp8 能容纳的 token 是 bf16 的两倍。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="288"/>
        <source>The most sequences the engine decodes at once (vLLM max_num_seqs).</source>
        <translation>引擎同时解码的最多序列数（vLLM max_num_seqs）。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="289"/>
        <source>The longest request, prompt and completion together, the engine accepts (vLLM max_model_len; verl rollout.max_model_len). vLLM refuses to start when its KV cache cannot hold one request this long, and counts how many requests fit in the cache at once at this length; the engine still takes its whole share of the GPU. Unset, it is the prompt plus the completion, as verl passes it.</source>
        <translation>引擎接受的最长请求，提示与回答合计（vLLM max_model_len；verl rollout.max_model_len）。KV 缓存放不下一个这么长的请求时，vLLM 拒绝启动；它还按这个长度计算缓存能同时容纳多少个请求。引擎占用的仍是它在 GPU 上的全部份额。不设置时为提示长度加回答长度，与 verl 的做法相同。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="295"/>
        <source>Which vLLM release&apos;s start-up arithmetic sizes the KV cache. The newest vLLM and vLLM 0.8&apos;s V0 engine take from the engine&apos;s share only what the engine uses itself: its weights, the peak of its trial forward pass and a little non-torch memory. vLLM 0.8&apos;s V1 engine also takes what is already on the GPU, a colocated trainer&apos;s weights and the CUDA context, so its KV cache is smaller.</source>
        <translation>按哪个 vLLM 版本启动时的算法确定 KV 缓存的大小。最新的 vLLM 和 vLLM 0.8 的 V0 引擎只从引擎的份额中扣除引擎自己用的部分：权重、一次试运行前向的峰值和少量非 torch 显存。vLLM 0.8 的 V1 引擎还会扣除 GPU 上已有的内容，即共置训练器的权重和 CUDA 上下文，因此它的 KV 缓存更小。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="300"/>
        <source>Whether the engine decodes without CUDA graphs (vLLM enforce_eager, SGLang --disable-cuda-graph): no graph memory beside its share, but every decode step launches its kernels one by one, slower for small batches.</source>
        <translation>引擎是否在不使用 CUDA 图的情况下解码（vLLM enforce_eager、SGLang --disable-cuda-graph）：在其份额之外不占用图内存，但每个解码步都要逐个启动内核，小批量时更慢。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="303"/>
        <source>Whether vLLM runs as its AsyncLLM (NeMo-RL vllm_cfg.async_engine): its engine core is then a process of its own, so turning the last step&apos;s output into tokens overlaps the next decode step instead of adding to it.</source>
        <translation>vLLM 是否以 AsyncLLM 运行（NeMo-RL vllm_cfg.async_engine）：此时其引擎核心是独立进程，把上一步的输出处理成 token 的工作与下一个解码步重叠，而不是叠加在其上。</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="353"/>
        <source>rule or verifier rewards (none)</source>
        <translation>规则或验证器奖励（无）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="355"/>
        <source>a copy of the policy (same)</source>
        <translation>策略模型的一份副本（same）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="372"/>
        <source>prompt + completion (%1)</source>
        <translation>提示 + 回答（%1）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="379"/>
        <source>as prompt (%1)</source>
        <translation>与提示长度相同（%1）</translation>
    </message>
    <message>
        <location filename="../rl_rows.py" line="382"/>
        <source>as completion (%1)</source>
        <translation>与补全长度相同（%1）</translation>
    </message>
</context>
<context>
    <name>RecomputeRows</name>
    <message>
        <location filename="../recompute_row.py" line="32"/>
        <source>all of them (0)</source>
        <translation>全部 (0)</translation>
    </message>
    <message>
        <location filename="../recompute_row.py" line="35"/>
        <source>Megatron --recompute-num-layers (NeMo recompute_num_layers, torchtitan&apos;s every n-th block): decoder layers of each pipeline stage (each model chunk with virtual stages) that full checkpointing recomputes. The others keep all their activations and are not run again: fewer layers recomputed is faster and needs more memory. 0 recomputes every layer.</source>
        <translation>Megatron --recompute-num-layers（NeMo recompute_num_layers，torchtitan 的每第 n 个块）：完全检查点在每个流水线阶段（使用虚拟阶段时为每个模型块）中重算的解码器层数。其余层保留全部激活值，不再重新运行：重算的层越少越快，但需要更多显存。0 表示重算每一层。</translation>
    </message>
    <message>
        <location filename="../recompute_row.py" line="41"/>
        <source>the first layers of each stage, the rest not (block)</source>
        <translation>每个阶段的前几层，其余不重算 (block)</translation>
    </message>
    <message>
        <location filename="../recompute_row.py" line="42"/>
        <source>every layer, that many at a time (uniform)</source>
        <translation>每一层，每次重算这么多层 (uniform)</translation>
    </message>
    <message>
        <location filename="../recompute_row.py" line="45"/>
        <source>Megatron --recompute-method: block recomputes only the first layers of each stage; uniform recomputes every layer in groups of that many, keeping only each group&apos;s input, and rebuilds a whole group at once in the backward pass.</source>
        <translation>Megatron --recompute-method：block 只重算每个阶段的前几层；uniform 按这么多层一组重算每一层，只保留每组的输入，并在反向传播中一次重建整组。</translation>
    </message>
    <message>
        <location filename="../recompute_row.py" line="49"/>
        <source>Recompute layers</source>
        <translation>重算层数</translation>
    </message>
    <message>
        <location filename="../recompute_row.py" line="50"/>
        <source>Recompute method</source>
        <translation>重算方式</translation>
    </message>
</context>
<context>
    <name>RentPanel</name>
    <message>
        <location filename="../rent_panel.py" line="128"/>
        <source>(not named)</source>
        <translation>（未指定）</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="159"/>
        <location filename="../rent_panel.py" line="164"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="160"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="173"/>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="174"/>
        <location filename="../rent_panel.py" line="234"/>
        <source>Deadline</source>
        <translation>截止期限</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="175"/>
        <location filename="../rent_panel.py" line="234"/>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="308"/>
        <source>%(n)s x %(gpu)s</source>
        <translation>%(n)s × %(gpu)s</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="322"/>
        <source>GPU-hours = time to train x GPUs: %(time)s x %(gpus)s = %(hours)s; cost = GPU-hours x the price per GPU-hour entered. Time to train = tokens to train / the layout&apos;s tokens per second. Nothing else is charged: no storage, network or host prices.</source>
        <translation>GPU 小时 = 训练用时 × GPU 数：%(time)s × %(gpus)s = %(hours)s；费用 = GPU 小时 × 所填的每 GPU 小时价格。训练用时 = 训练 token 总数 ÷ 该布局每秒的 token 数。不另计其他费用：不含存储、网络或主机费用。</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="153"/>
        <source>Find what to rent</source>
        <translation>查找该租什么</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="176"/>
        <source>No prices ship with the app: enter what your provider charges. Cost is GPU-hours x price only (no storage, network or host prices).</source>
        <translation>本应用不附带任何价格：请输入您的云服务商的收费。费用仅为 GPU 小时 × 价格（不含存储、网络或主机费用）。</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="192"/>
        <source>Enter prices and press Find what to rent.</source>
        <translation>请输入价格，然后点击“查找该租什么”。</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="245"/>
        <source>The set-up changed: press Find what to rent again.</source>
        <translation>配置已更改：请再次点击“查找该租什么”。</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="250"/>
        <source>Searching GPU types, counts and layouts…</source>
        <translation>正在搜索 GPU 型号、数量和并行布局……</translation>
    </message>
    <message>
        <source>%(n)d options for %(tokens)s tokens, cheapest first; one checkpoint is %(ckpt)s. Searched in %(time)s.</source>
        <translation type="vanished">训练 %(tokens)s 个 token 的 %(n)d 个方案，最便宜的在前；一个检查点为 %(ckpt)s。搜索用时 %(time)s。</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="258"/>
        <source>%(n)d options for %(tokens)s tokens, cheapest first (costs within %(tie)s of each other count as equal: fewer GPUs first); one checkpoint is %(ckpt)s. Searched in %(time)s.</source>
        <translation>训练 %(tokens)s 个 token 的 %(n)d 个方案，最便宜的在前（费用相差不到 %(tie)s 的视为相同：GPU 少的在前）；一个检查点为 %(ckpt)s。搜索用时 %(time)s。</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="264"/>
        <source>No deadline set: options that take more than %s are left out as impractical (listed under Left out). Set a deadline to compare longer runs.</source>
        <translation>未设截止时间：耗时超过 %s 的方案视为不切实际而略去（列在“略去”下）。设置截止时间即可比较更长的训练。</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="272"/>
        <source>Left out:</source>
        <translation>未入选：</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="301"/>
        <source>%(hours)s GPU-hours x %(price)s = %(cost)s</source>
        <translation>%(hours)s GPU 小时 × %(price)s = %(cost)s</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="304"/>
        <source>%s GPU-hours (no price set)</source>
        <translation>%s GPU 小时（未设价格）</translation>
    </message>
    <message>
        <source>%(n)d x %(gpu)s</source>
        <translation type="vanished">%(n)d × %(gpu)s</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="310"/>
        <source>trains in %(time)s at MFU %(mfu)s; %(mem)s per GPU, %(host)s CPU memory per node</source>
        <translation>训练用时 %(time)s，MFU %(mfu)s；每 GPU %(mem)s，每节点 CPU 内存 %(host)s</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="314"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="320"/>
        <source>layout: %s</source>
        <translation>布局：%s</translation>
    </message>
    <message>
        <source>GPU-hours = time to train x GPUs: %(time)s x %(gpus)d = %(hours)s; cost = GPU-hours x the price per GPU-hour entered. Time to train = tokens to train / the layout&apos;s tokens per second. Nothing else is charged: no storage, network or host prices.</source>
        <translation type="vanished">GPU 小时 = 训练用时 × GPU 数：%(time)s × %(gpus)d = %(hours)s；费用 = GPU 小时 × 所填的每 GPU 小时价格。训练用时 = 训练 token 总数 ÷ 该布局每秒的 token 数。不另计其他费用：不含存储、网络或主机费用。</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="vanished">应用</translation>
    </message>
    <message>
        <source>This is your set-up already</source>
        <translation type="vanished">这已是您当前的配置</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="330"/>
        <source>Rent %(n)d x %(gpu)s</source>
        <translation>租用 %(n)d × %(gpu)s</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <location filename="../report_export.py" line="31"/>
        <source>Comparison</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../report_export.py" line="32"/>
        <source>LLM Memory Planner %(version)s · %(date)s</source>
        <translation>LLM Memory Planner %(version)s · %(date)s</translation>
    </message>
    <message>
        <location filename="../report_export.py" line="33"/>
        <source>What differs</source>
        <translation>不同之处</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <location filename="../search_panel.py" line="68"/>
        <source>Search again</source>
        <translation>重新搜索</translation>
    </message>
    <message>
        <location filename="../search_panel.py" line="152"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../search_panel.py" line="155"/>
        <source>This is your set-up already</source>
        <translation>这已经是当前设置</translation>
    </message>
</context>
<context>
    <name>SearchableTree</name>
    <message>
        <location filename="../pickers.py" line="76"/>
        <source>Show or hide the whole list</source>
        <translation>显示或隐藏完整列表</translation>
    </message>
    <message>
        <location filename="../pickers.py" line="77"/>
        <source>Show the list</source>
        <translation>显示列表</translation>
    </message>
</context>
<context>
    <name>ServeMode</name>
    <message>
        <location filename="../serve_mode.py" line="63"/>
        <source>KV cache %1: %2 tokens</source>
        <translation>KV 缓存 %1：%2 个 token</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="66"/>
        <source>in %1 blocks of %2</source>
        <translation>，分为 %1 个块，每块 %2 个</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="68"/>
        <source>maximum concurrency at %1 tokens per request: %2×</source>
        <translation>每个请求 %1 个 token 时的最大并发：%2×</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="70"/>
        <source>longest context for one user: %1 tokens</source>
        <translation>单个用户的最长上下文：%1 个 token</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="89"/>
        <source>Users vs context</source>
        <translation>用户数与上下文</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="97"/>
        <source>The engine&apos;s own figures: the KV cache it allocates from what its memory budget leaves after the weights, the profile run&apos;s peak and non-torch memory; how many requests of max_model_len tokens it holds at once; and the longest single request it holds, at most the model&apos;s own context. Hover the KV cache row of the breakdown for its inputs.</source>
        <translation>推理引擎自己的数字：KV 缓存是其显存预算扣除权重、试运行峰值和非 torch 显存后分配的部分；同时能容纳多少个 max_model_len 长度的请求；以及它能容纳的最长单个请求（不超过模型自身的上下文）。将鼠标悬停在明细表的 KV 缓存行上可查看其输入。</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="131"/>
        <source>the engine&apos;s budget: %1 of %2 per GPU</source>
        <translation>引擎的预算：每个 GPU %2 中的 %1</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="138"/>
        <source>KV cache per token on each GPU: %1 KiB</source>
        <translation>每块 GPU 上每个 token 的 KV 缓存：%1 KiB</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="28"/>
        <source>Speed at %1 users of %2 tokens: first token after %3, %4 per output token, %5 tokens/s.</source>
        <translation>%1 个用户、每人 %2 个 token 时的速度：首个 token 用时 %3，每个输出 token %4，%5 token/s。</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="58"/>
        <source>Maximum concurrency</source>
        <translation>最大并发</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="59"/>
        <source>Context per user</source>
        <translation>每个用户的上下文</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="60"/>
        <source>KV cache tokens</source>
        <translation>KV 缓存 token 数</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="61"/>
        <source>Longest context for one user</source>
        <translation>单个用户的最长上下文</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="62"/>
        <source>Time to first token</source>
        <translation>首个 token 用时</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="64"/>
        <source>Time per output token</source>
        <translation>每个输出 token 用时</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="66"/>
        <source>Output tokens/s</source>
        <translation>输出 token/s</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="88"/>
        <source>GPUs an hour</source>
        <translation>GPU 每小时费用</translation>
    </message>
    <message>
        <location filename="../serve_mode.py" line="132"/>
        <source>the engine&apos;s budget: %1 of the %2 CUDA reports per GPU (the card&apos;s %3)</source>
        <translation>引擎的预算：每个 GPU 上 CUDA 报告的 %2 中的 %1（显卡标称 %3）</translation>
    </message>
    <message>
        <location filename="../serving_rows.py" line="30"/>
        <source>Speed for one user of %2 tokens: first token after %3, %4 per output token, %5 tokens/s.</source>
        <translation>1 个用户、%2 个 token 时的速度：首个 token 用时 %3，每个输出 token %4，%5 token/s。</translation>
    </message>
</context>
<context>
    <name>ServeRentPanel</name>
    <message>
        <location filename="../serve_rent_panel.py" line="72"/>
        <source>Find what to rent</source>
        <translation>查找该租什么</translation>
    </message>
    <message>
        <source>(not named)</source>
        <translation type="vanished">（未指定）</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="87"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="88"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="89"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="94"/>
        <source>Users at once</source>
        <translation>同时服务的用户数</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="94"/>
        <source>Requests served at the same time</source>
        <translation>同时服务的请求数</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="95"/>
        <source>What the prices and budgets are in</source>
        <translation>价格和预算所用的货币</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="96"/>
        <source>Prompt tokens</source>
        <translation>提示词 token 数</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="96"/>
        <source>Prompt tokens of each request</source>
        <translation>每个请求的提示词 token 数</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="97"/>
        <source>Output tokens</source>
        <translation>输出 token 数</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="97"/>
        <source>Output tokens of each request</source>
        <translation>每个请求的输出 token 数</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="98"/>
        <source>Time per output token at most</source>
        <translation>每个输出 token 的时间上限</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="98"/>
        <source>TPOT at most</source>
        <translation>TPOT 上限</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="99"/>
        <source>Time to first token at most</source>
        <translation>首个 token 的时间上限</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="99"/>
        <source>TTFT at most</source>
        <translation>TTFT 上限</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="100"/>
        <source>Per hour at most</source>
        <translation>每小时上限</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="100"/>
        <source>Budget per hour for all the GPUs</source>
        <translation>所有 GPU 每小时的预算</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="101"/>
        <source>Per million at most</source>
        <translation>每百万上限</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="113"/>
        <source>Enter your provider&apos;s prices (the same list as training&apos;s); cost is GPUs x price only.</source>
        <translation>请填入你的云服务商的价格（与训练共用同一张表）；费用只算 GPU 数 × 价格。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="178"/>
        <source>%(n)d options to serve %(users)s users at once on %(engine)s, %(prompt)s + %(output)s tokens each (%(limits)s), cheapest per hour first. Searched in %(time)s.</source>
        <translation>%(n)d 个方案，用 %(engine)s 同时服务 %(users)s 个用户，每个请求 %(prompt)s + %(output)s 个 token（%(limits)s），按每小时费用从低到高排列。搜索用时 %(time)s。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="183"/>
        <source>Costs per hour within %s of each other count as equal: fewer GPUs first.</source>
        <translation>每小时费用相差 %s 以内视为相同：GPU 少的在前。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="221"/>
        <source>%(users)s; TPOT %(tpot)s ms, TTFT %(ttft)s, %(tps)s output tokens/s</source>
        <translation>%(users)s；TPOT %(tpot)s 毫秒，TTFT %(ttft)s，每秒输出 %(tps)s 个 token</translation>
    </message>
    <message>
        <source>Budget per hour</source>
        <translation type="vanished">每小时预算</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="101"/>
        <source>Budget per million output tokens</source>
        <translation>每百万输出 token 的预算</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="95"/>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <source>No prices ship with the app: enter what your provider charges (the same list as training&apos;s). Cost is GPUs x price per GPU-hour only.</source>
        <translation type="vanished">应用不自带任何价格：请填入你的云服务商的收费（与训练共用同一张价格表）。费用只算 GPU 数 × 每 GPU 小时价格。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="126"/>
        <source>Enter prices, the users served at once and the lengths, and press Find what to rent.</source>
        <translation>填入价格、同时服务的用户数和请求长度，然后点“查找该租什么”。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="163"/>
        <source>The set-up changed: press Find what to rent again.</source>
        <translation>配置已更改：请再次点击“查找该租什么”。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="169"/>
        <source>Searching GPU types and counts…</source>
        <translation>正在搜索 GPU 型号和数量…</translation>
    </message>
    <message>
        <source>%(n)d options to serve %(users)s users at once on %(engine)s, %(prompt)s + %(output)s tokens each, cheapest per hour first (within %(tie)s of each other: fewer GPUs first). Searched in %(time)s.</source>
        <translation type="vanished">%(n)d 个方案，用 %(engine)s 同时服务 %(users)s 个用户，每个请求 %(prompt)s + %(output)s 个 token，按每小时费用从低到高排列（相差 %(tie)s 以内视为相同：GPU 少的在前）。搜索用时 %(time)s。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="191"/>
        <source>Left out:</source>
        <translation>未入选：</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="214"/>
        <source>%(n)d x %(gpu)s</source>
        <translation>%(n)d × %(gpu)s</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="216"/>
        <source>%(hour)s an hour, %(million)s per million output tokens</source>
        <translation>每小时 %(hour)s，每百万输出 token %(million)s</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="219"/>
        <source>no price set</source>
        <translation>未设价格</translation>
    </message>
    <message>
        <source>fits %(per)s users per instance; TPOT %(tpot)s ms, TTFT %(ttft)s, %(tps)s output tokens/s</source>
        <translation type="vanished">每个实例容纳 %(per)s 个用户；TPOT %(tpot)s 毫秒，TTFT %(ttft)s，每秒输出 %(tps)s 个 token</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="227"/>
        <source>likely TPOT %(low)s to %(high)s ms, %(tlow)s to %(thigh)s tokens/s</source>
        <translation>可能范围：TPOT %(low)s 至 %(high)s 毫秒，每秒 %(tlow)s 至 %(thigh)s 个 token</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="231"/>
        <source>, %(low)s to %(high)s per million</source>
        <translation>，每百万 %(low)s 至 %(high)s</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="235"/>
        <source>; its slow end is over the TPOT target</source>
        <translation>；其慢端超过 TPOT 目标</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="236"/>
        <source>(%s)</source>
        <translation>（%s）</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="241"/>
        <source>The serving estimate of one instance: the users it holds at this context (its KV cache after weights and the engine&apos;s reserve), its time per output token and tokens/s for its share of the users; replicas serve the rest. Cost per hour = GPUs x the price per GPU-hour entered; per million output tokens = that / (tokens/s x 3,600) x 1,000,000. The likely range is the serving bands&apos; (measured runs).</source>
        <translation>单个实例的推理估算：在此上下文长度下它能容纳的用户数（扣除权重和引擎预留后的 KV 缓存），以及它所分担用户的每输出 token 时间和每秒 token 数；其余用户由副本服务。每小时费用 = GPU 数 × 所填每 GPU 小时价格；每百万输出 token 费用 = 每小时费用 / (每秒 token 数 × 3,600) × 1,000,000。可能范围来自推理速度误差带（实测运行）。</translation>
    </message>
    <message>
        <location filename="../serve_rent_panel.py" line="249"/>
        <source>Rent %(n)d x %(gpu)s</source>
        <translation>租用 %(n)d × %(gpu)s</translation>
    </message>
</context>
<context>
    <name>ServingPanel</name>
    <message>
        <location filename="../serving_panel.py" line="55"/>
        <source>Serving set-up</source>
        <translation>推理服务设置</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="67"/>
        <location filename="../serving_panel.py" line="206"/>
        <source>engine default</source>
        <translation>引擎默认值</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="76"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="77"/>
        <source>the model&apos;s training context</source>
        <translation>模型的训练上下文</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="103"/>
        <source>The program that serves the model. vLLM and SGLang give what is left of their share of the GPU to the KV cache; llama.cpp and Ollama size it from n_ctx.</source>
        <translation>提供模型服务的程序。vLLM 和 SGLang 把其 GPU 份额中剩下的部分都给 KV 缓存；llama.cpp 和 Ollama 按 n_ctx 确定其大小。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="105"/>
        <source>How the weights are stored on the GPU: 16-bit, 8-bit or 4-bit checkpoints (vLLM, SGLang) or a GGUF quantization (llama.cpp, Ollama). Fewer bits: less memory, more room for the KV cache, some quality loss.</source>
        <translation>权重在 GPU 上的存储方式：16 位、8 位或 4 位检查点（vLLM、SGLang），或 GGUF 量化（llama.cpp、Ollama）。位数越少：显存越少，KV 缓存空间越多，质量略有损失。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="108"/>
        <source>Number format of the KV cache: fp8 (vLLM, SGLang) or q8_0 / q4_0 (llama.cpp) hold twice or four times the tokens.</source>
        <translation>KV 缓存的数值格式：fp8（vLLM、SGLang）或 q8_0 / q4_0（llama.cpp）可容纳两倍或四倍的 token。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="110"/>
        <source>Longest prompt plus answer of one user. The KV cache must hold at least one sequence this long or the engine refuses to start.</source>
        <translation>单个用户最长的提示加回答。KV 缓存必须至少容纳一条这么长的序列，否则引擎拒绝启动。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="112"/>
        <source>Sequences decoded together (vLLM max_num_seqs; llama.cpp n_parallel slots, each with the context above). Memory decides how many really fit: see the users chart.</source>
        <translation>同时解码的序列（vLLM max_num_seqs；llama.cpp 的 n_parallel 个槽位，每个都有上面的上下文）。实际能容纳多少由显存决定：见用户图表。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="114"/>
        <source>Share of each GPU the engine takes, KV cache included; the rest stays free for other processes.</source>
        <translation>引擎占用每个 GPU 的比例，包括 KV 缓存；其余部分留给其他进程。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="116"/>
        <source>Layers llama.cpp keeps on the GPUs; the others stay in CPU memory and run on the CPU (much slower).</source>
        <translation>llama.cpp 放在 GPU 上的层；其余层留在 CPU 内存中并在 CPU 上运行（慢得多）。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="118"/>
        <source>Split every layer over this many GPUs: each holds a share of the weights and KV.</source>
        <translation>把每一层拆分到这么多 GPU 上：每个 GPU 持有一部分权重和 KV。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="119"/>
        <source>When your llama.cpp (or Ollama) build was made. Builds from October 2023 to June 2024 (PR #3776 to PR #8075) turn each quantized matrix into 16-bit numbers for every batch of prompt tokens before multiplying it: slower prompts on NVIDIA GPUs, and GPU memory for the 16-bit copy. Later builds multiply the quantized numbers directly (V100s still take the 16-bit path).</source>
        <translation>你的 llama.cpp（或 Ollama）是何时构建的。2023 年 10 月至 2024 年 6 月的构建（PR #3776 至 PR #8075）在每批提示词 token 相乘之前，先把每个量化矩阵转成 16 位数：在 NVIDIA GPU 上提示词处理更慢，并要为 16 位副本占用显存。之后的构建直接用量化数相乘（V100 仍走 16 位路径）。</translation>
    </message>
    <message>
        <location filename="../serving_panel.py" line="232"/>
        <source>Context per user (n_ctx / n_parallel)</source>
        <translation>每个用户的上下文（n_ctx / n_parallel）</translation>
    </message>
</context>
<context>
    <name>SetupPanel</name>
    <message>
        <location filename="../setup_panel.py" line="56"/>
        <source>Training set-up</source>
        <translation>训练设置</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="59"/>
        <location filename="../setup_panel.py" line="354"/>
        <source>Train every weight (full fine-tune)</source>
        <translation>训练全部权重（全量微调）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="60"/>
        <source>Freeze some layers (frozen layers)</source>
        <translation>冻结部分层（冻结层）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="61"/>
        <source>Small adapters (LoRA)</source>
        <translation>小型适配器（LoRA）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="62"/>
        <source>Adapters on a 4-bit model (QLoRA)</source>
        <translation>在 4-bit 模型上加适配器（QLoRA）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="64"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Which linear layers get adapters</source>
        <translation type="vanished">哪些线性层加适配器</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="67"/>
        <source>bottom layers (near the input)</source>
        <translation>底部的层（靠近输入）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="68"/>
        <source>top layers (near the output)</source>
        <translation>顶部的层（靠近输出）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="70"/>
        <source>also freeze the token embeddings</source>
        <translation>同时冻结 token 嵌入层</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="72"/>
        <source>4-bit (NF4)</source>
        <translation>4-bit（NF4）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="73"/>
        <source>8-bit (LLM.int8)</source>
        <translation>8-bit（LLM.int8）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="75"/>
        <source>double quantisation</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="87"/>
        <source>in the number format below (16/32-bit)</source>
        <translation>使用下方的数值格式（16/32 位）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="88"/>
        <source>as the checkpoint was released (MXFP4 / FP8 where it is)</source>
        <translation>按检查点发布时的格式（如有则为 MXFP4 / FP8）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="89"/>
        <source>MXFP4: 4.25 bits per weight</source>
        <translation>MXFP4：每个权重 4.25 位</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="90"/>
        <source>FP8: 8 bits per weight</source>
        <translation>FP8：每个权重 8 位</translation>
    </message>
    <message>
        <source>Adapter rank (LoRA r)</source>
        <translation type="vanished">适配器秩（LoRA r）</translation>
    </message>
    <message>
        <source>Adapted layers (targets)</source>
        <translation type="vanished">适配的层（targets）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="100"/>
        <source>Frozen layers</source>
        <translation>冻结层数</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="101"/>
        <source>Frozen side</source>
        <translation>冻结哪一侧</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="105"/>
        <source>Frozen base weights (storage)</source>
        <translation>冻结的基础权重（存储格式）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="106"/>
        <source>Base weights (QLoRA bits)</source>
        <translation>基础权重（QLoRA 位数）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="110"/>
        <source>bf16 autocast, fp32 weights (AMP)</source>
        <translation>bf16 autocast，fp32 权重（AMP）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="111"/>
        <source>fp16 autocast, fp32 weights (AMP)</source>
        <translation>fp16 autocast，fp32 权重（AMP）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="112"/>
        <source>pure bf16 (weights, grads, states)</source>
        <translation>纯 bf16（权重、梯度、状态）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="113"/>
        <source>pure fp16</source>
        <translation>纯 fp16</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="114"/>
        <source>bf16 + fp32 master weights (DeepSpeed, Megatron)</source>
        <translation>bf16 + fp32 主权重（DeepSpeed、Megatron）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="115"/>
        <source>fp16 + fp32 master weights (DeepSpeed, Megatron)</source>
        <translation>fp16 + fp32 主权重（DeepSpeed、Megatron）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="116"/>
        <source>fp8 compute (Transformer Engine, torchao)</source>
        <translation>fp8 计算（Transformer Engine、torchao）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="117"/>
        <source>NVFP4 compute (Blackwell)</source>
        <translation>NVFP4 计算（Blackwell）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="118"/>
        <source>full fp32</source>
        <translation>全 fp32</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="120"/>
        <source>Number format (precision)</source>
        <translation>数值格式（精度）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="122"/>
        <source>AdamW as the framework runs it</source>
        <translation>框架自带的 AdamW</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="123"/>
        <source>AdamW (PyTorch default, foreach)</source>
        <translation>AdamW（PyTorch 默认，foreach）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="124"/>
        <source>AdamW fused</source>
        <translation>AdamW（融合实现）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="125"/>
        <source>AdamW 8-bit (bitsandbytes)</source>
        <translation>AdamW 8-bit（bitsandbytes）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="126"/>
        <source>AdamW 8-bit, paged to CPU memory when the GPU is full (bitsandbytes)</source>
        <translation>AdamW 8-bit，GPU 内存不足时分页到 CPU 内存（bitsandbytes）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="127"/>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="128"/>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="129"/>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="131"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="133"/>
        <location filename="../setup_panel.py" line="134"/>
        <source>Sequences per GPU step (micro-batch)</source>
        <translation>每块 GPU 每步的序列数（微批次）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="136"/>
        <location filename="../setup_panel.py" line="137"/>
        <source>Tokens per sequence (sequence length)</source>
        <translation>每条序列的 token 数（序列长度）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="139"/>
        <source>Steps per update (gradient accumulation)</source>
        <translation>每次更新的步数（梯度累积）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="141"/>
        <source>keep all activations (no checkpointing)</source>
        <translation>保留全部激活值（不用激活检查点）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="142"/>
        <source>recompute part of each layer, as the framework does (selective)</source>
        <translation>按框架的做法重算每层的一部分（选择性）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="143"/>
        <source>keep every other matrix product (per-op selective)</source>
        <translation>每隔一个矩阵乘保留其输出（逐算子选择性）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="198"/>
        <source>per-operation model, checked against traced steps (detailed)</source>
        <translation>逐算子模型，已与实测训练步核对（detailed）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="199"/>
        <source>textbook per-layer formula from the guide (seed-per-op)</source>
        <translation>指南中的逐层教科书公式（seed-per-op）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="200"/>
        <source>rule of thumb: K bytes per parameter (seed-k-factor)</source>
        <translation>经验法则：每个参数 K 字节（seed-k-factor）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="201"/>
        <source>activation formula α = (bs/h)(5 + 5as/6h) (seed-alpha)</source>
        <translation>激活公式 α = (bs/h)(5 + 5as/6h)（seed-alpha）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="203"/>
        <source>Estimator</source>
        <translation>估算方法</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="204"/>
        <source>Advanced: parallelism and estimator</source>
        <translation>高级：并行与估算方法</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="221"/>
        <source>What is trained. Full fine-tuning keeps gradients and optimizer states for every weight (the most memory); frozen layers skip them for part of the model; LoRA trains small adapters beside frozen weights; QLoRA also stores the frozen weights in 4 or 8 bits (least memory, slightly slower).</source>
        <translation>训练哪些参数。全量微调为每个权重保存梯度和优化器状态（显存最多）；冻结部分层可省去这部分模型的这些开销；LoRA 在冻结权重旁训练小型适配器；QLoRA 还把冻结权重存为 4 或 8 位（显存最少，略慢）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="353"/>
        <source>Train every weight (pre-training)</source>
        <translation>训练全部权重（预训练）</translation>
    </message>
    <message>
        <source>Width of each adapter. Memory for adapters, their gradients and optimizer states grows in proportion; 8–64 is usual.</source>
        <translation type="vanished">每个适配器的宽度。适配器及其梯度、优化器状态的显存随之成比例增长；常用 8–64。</translation>
    </message>
    <message>
        <source>Which linear layers get adapters. More layers: more trainable weights and a little more activation memory, usually better quality.</source>
        <translation type="vanished">哪些线性层加适配器。层越多：可训练权重越多、激活显存略增，质量通常更好。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="225"/>
        <source>How many decoder layers are not trained. Each frozen layer saves its gradients and optimizer states.</source>
        <translation>不训练的解码层数。每冻结一层就省下它的梯度和优化器状态。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="227"/>
        <source>Freezing the bottom layers also saves the activations kept for their backward pass; freezing the top ones does not.</source>
        <translation>冻结底部层还能省下为其反向传播保存的激活；冻结顶部层则不能。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="229"/>
        <source>Do not train the token embedding table (a large matrix for big vocabularies): saves its gradient and optimizer states.</source>
        <translation>不训练词嵌入表（词表大时是个大矩阵）：省下它的梯度和优化器状态。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="231"/>
        <source>How the frozen base weights are stored: 4-bit NF4 uses about a quarter of bf16, 8-bit about half.</source>
        <translation>冻结基础权重的存储方式：4 位 NF4 约为 bf16 的四分之一，8 位约为一半。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="233"/>
        <source>How LoRA keeps the frozen model in memory. gpt-oss ships its experts in MXFP4 (about a quarter of bf16) and DeepSeek-V3/R1 and Kimi-K2 ship FP8 (half): kept that way, the frozen weights take that much less memory.</source>
        <translation>LoRA 在显存中如何保存冻结的模型。gpt-oss 的专家权重以 MXFP4 发布（约为 bf16 的四分之一），DeepSeek-V3/R1 和 Kimi-K2 以 FP8 发布（一半）：按原格式保存时，冻结权重占用的显存相应减少。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="236"/>
        <source>Also quantise the quantisation constants: about 0.4 bits per weight less.</source>
        <translation>对量化常数再做量化：每个权重约少 0.4 位。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="237"/>
        <source>Number format of weights, gradients and computation. AMP keeps fp32 weights (4 bytes each) and computes in 16 bits; pure bf16 halves the weights but can lose accuracy; fp32 everywhere is the largest and slowest.</source>
        <translation>权重、梯度和计算的数值格式。AMP 保留 fp32 权重（每个 4 字节）并用 16 位计算；纯 bf16 让权重减半但可能损失精度；全 fp32 最大也最慢。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="240"/>
        <source>AdamW keeps two fp32 states per trained weight (8 bytes); 8-bit AdamW about 2 bytes; SGD none, with momentum 4 bytes; Adafactor much less than AdamW.</source>
        <translation>AdamW 为每个训练权重保存两个 fp32 状态（8 字节）；8 位 AdamW 约 2 字节；SGD 没有，带动量 4 字节；Adafactor 远少于 AdamW。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="242"/>
        <source>Sequences each GPU processes at once. Activation memory grows in proportion; use gradient accumulation for a larger effective batch without the memory.</source>
        <translation>每块 GPU 一次处理的序列数。激活显存随之成比例增长；想要更大的有效批次而不增加显存，请用梯度累积。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="244"/>
        <source>Tokens in each sequence. Activation memory grows in proportion (eager attention: with its square).</source>
        <translation>每个序列的 token 数。激活显存随之成比例增长（eager 注意力：按平方增长）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="246"/>
        <source>Micro-batches added up before each optimizer step: a larger effective batch for no extra memory, at the cost of more steps per update.</source>
        <translation>每次优化器更新前累加的微批次数：不增加显存即可获得更大的有效批次，代价是每次更新需要更多步。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="248"/>
        <source>Throw away activations in the forward pass and recompute them in the backward: much less activation memory for about a third more compute (full) or less (selective).</source>
        <translation>前向时丢弃激活、反向时重新计算：激活显存大幅减少，计算量约增加三分之一（完整）或更少（选择性）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="251"/>
        <source>FlashAttention and SDPA never store the attention score matrix; eager stores batch × heads × sequence² scores per layer.</source>
        <translation>FlashAttention 和 SDPA 从不保存注意力分数矩阵；eager 每层保存 批次 × 头数 × 序列长度² 个分数。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="253"/>
        <source>Split every layer&apos;s matrices over this many GPUs: weights, gradients, states and most activations divide by it; costs fast communication (NVLink) every layer.</source>
        <translation>把每层的矩阵切分到这么多块 GPU 上：权重、梯度、状态和大部分激活都按此除；代价是每层都需要高速通信（NVLink）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="255"/>
        <source>Split the layers into this many consecutive stages on different GPUs: each holds a part of the model; costs idle time (the pipeline bubble) unless many micro-batches.</source>
        <translation>把各层分成这么多个连续阶段放在不同 GPU 上：每块只保存模型的一部分；除非微批次很多，否则会有空闲时间（流水线气泡）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="257"/>
        <source>Spread a mixture-of-experts model&apos;s experts over this many GPUs (MoE models only).</source>
        <translation>把混合专家模型的专家分布到这么多块 GPU 上（仅限 MoE 模型）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="258"/>
        <source>Split each sequence over this many GPUs: activations divide by it, for long contexts; costs communication in attention.</source>
        <translation>把每个序列切分到这么多块 GPU 上：激活按此除，适合长上下文；代价是注意力中的通信。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="260"/>
        <source>With tensor parallelism, also split the norm and residual activations over the tensor-parallel GPUs: less activation memory, same compute.</source>
        <translation>配合张量并行，把归一化和残差激活也切分到张量并行的 GPU 上：激活显存更少，计算量不变。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="262"/>
        <source>Shard training state over the data-parallel GPUs instead of copying it: ZeRO-1 the optimizer states, ZeRO-2 also gradients, ZeRO-3/FSDP also weights (more communication).</source>
        <translation>把训练状态分片到数据并行的 GPU 上而非复制：ZeRO-1 分片优化器状态，ZeRO-2 再加梯度，ZeRO-3/FSDP 再加权重（通信更多）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="265"/>
        <source>Keep optimizer states (and weights) in CPU memory: frees GPU memory, but every step waits for PCIe transfers and a CPU optimizer (much slower).</source>
        <translation>把优化器状态（和权重）放在 CPU 内存：释放显存，但每步都要等待 PCIe 传输和 CPU 优化器（慢得多）。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="267"/>
        <source>How memory is computed. &apos;detailed&apos; counts each tensor of a real PyTorch step and is checked against measurements; the others reproduce the guide&apos;s formulas for comparison.</source>
        <translation>显存的计算方式。&apos;detailed&apos; 逐个统计真实 PyTorch 训练步中的张量，并已与实测核对；其他方法复现指南中的公式，供比较。</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="144"/>
        <source>recompute each layer (full checkpointing)</source>
        <translation>重算每一层（完整激活检查点）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="146"/>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="149"/>
        <source>PyTorch SDPA</source>
        <translation>PyTorch SDPA</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="150"/>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="151"/>
        <source>eager (stores b·a·s² scores)</source>
        <translation>eager（保存 b·a·s² 个注意力分数）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="153"/>
        <source>Attention kernel</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="167"/>
        <source>Tensor parallel (TP)</source>
        <translation>张量并行（TP）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="168"/>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行（PP）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="169"/>
        <source>Expert parallel (EP)</source>
        <translation>专家并行（EP）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="170"/>
        <source>Context parallel (CP)</source>
        <translation>上下文并行（CP）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="171"/>
        <source>sequence parallelism</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="174"/>
        <source>off (plain data parallel)</source>
        <translation>关闭（普通数据并行）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="175"/>
        <source>ZeRO-1: shard optimizer states</source>
        <translation>ZeRO-1：对优化器状态分片</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="176"/>
        <source>ZeRO-2: + gradients</source>
        <translation>ZeRO-2：+ 梯度</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="177"/>
        <source>ZeRO-3: + weights</source>
        <translation>ZeRO-3：+ 权重</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="178"/>
        <source>FSDP full shard (= ZeRO-3)</source>
        <translation>FSDP 完全分片（= ZeRO-3）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="180"/>
        <source>Sharding (ZeRO / FSDP)</source>
        <translation>分片（ZeRO / FSDP）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="182"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="183"/>
        <source>optimizer states to CPU</source>
        <translation>优化器状态卸载到 CPU</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="184"/>
        <source>optimizer states and weights to CPU</source>
        <translation>优化器状态和权重卸载到 CPU</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="195"/>
        <source>Offload (slow)</source>
        <translation>卸载（慢）</translation>
    </message>
    <message>
        <location filename="../setup_panel.py" line="346"/>
        <source>AdamW as the framework runs it: %1</source>
        <translation>框架自带的 AdamW：%1</translation>
    </message>
    <message>
        <source>all attention projections</source>
        <translation type="vanished">全部注意力投影层</translation>
    </message>
    <message>
        <source>all linear layers</source>
        <translation type="vanished">全部线性层</translation>
    </message>
    <message>
        <source>Expert parallelism needs a mixture-of-experts model.</source>
        <translation type="vanished">专家并行需要混合专家（MoE）模型。</translation>
    </message>
</context>
<context>
    <name>ShardGroupRow</name>
    <message>
        <location filename="../shard_group_row.py" line="49"/>
        <source>HSDP / hybrid ZeRO: the GPUs each ZeRO / FSDP shard group spans. The training state is sharded within each group and copied across the groups: the gathers and reduce-scatters run among fewer GPUs, inside a node over NVLink when the group fits one (faster), then one all-reduce of each shard across the groups; each GPU holds a larger share of the state (more memory). &quot;all&quot; shards over every data-parallel GPU (torchtitan data_parallel_shard_degree, FSDP HYBRID_SHARD, Megatron --num-distributed-optimizer-instances, DeepSpeed mics_shard_size).</source>
        <translation>HSDP / 混合 ZeRO：每个 ZeRO / FSDP 分片组包含的 GPU 数。训练状态在组内分片、在组间复制：all-gather 和 reduce-scatter 在更少的 GPU 之间进行，组能放进一个节点时走节点内 NVLink（更快），之后每个分片在组间做一次 all-reduce；每块 GPU 保存更大份额的状态（更多显存）。&quot;全部&quot;表示在所有数据并行 GPU 上分片（torchtitan data_parallel_shard_degree、FSDP HYBRID_SHARD、Megatron --num-distributed-optimizer-instances、DeepSpeed mics_shard_size）。</translation>
    </message>
    <message>
        <location filename="../shard_group_row.py" line="66"/>
        <source>all (%1 GPUs)</source>
        <translation>全部（%1 块 GPU）</translation>
    </message>
</context>
<context>
    <name>SpeedChart</name>
    <message>
        <location filename="../speed_panel.py" line="84"/>
        <source>memory per GPU (%s)</source>
        <translation>每 GPU 显存（%s）</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="85"/>
        <source>tokens/s</source>
        <translation>tokens/s（吞吐）</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="86"/>
        <source>Blue: the largest micro-batch of a layout that fits · red ×: the smallest that does not · star: fastest plan · diamond: your set-up · dashed: capacity</source>
        <translation>蓝点：各布局放得下的最大微批次 · 红色 ×：放不下的最小微批次 · 星号：最快方案 · 菱形：当前设置 · 虚线：显存容量</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="89"/>
        <source>%d candidates over 1.5 times the capacity are off the chart</source>
        <translation>另有 %d 个超过显存容量 1.5 倍的候选未画出</translation>
    </message>
</context>
<context>
    <name>SpeedPanel</name>
    <message>
        <source>Search again</source>
        <translation type="vanished">重新搜索</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="113"/>
        <source>Searching every layout of these GPUs for the fastest that fit…</source>
        <translation>正在搜索这些 GPU 上的所有并行布局，寻找放得下且最快的……</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="138"/>
        <source>The one layout of these GPUs searched in %s; the fastest that fit, same training:</source>
        <translation>用 %s 搜索了这些 GPU 唯一的一种布局；训练内容不变、放得下的最快方案：</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="141"/>
        <source>%(n)d layouts searched in %(time)s; the fastest that fit, same training:</source>
        <translation>用 %(time)s 搜索了 %(n)d 种布局；训练内容不变、放得下的最快方案：</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="162"/>
        <source>your set-up as it is</source>
        <translation>当前设置，保持不变</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="136"/>
        <source>No layout of these GPUs fits without changing what you train.</source>
        <translation>不改变训练内容，这些 GPU 上没有放得下的布局。</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="154"/>
        <source>Changes what you train:</source>
        <translation>会改变训练内容的方案：</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="163"/>
        <source>%(tps)s tokens/s (%(per_gpu)s per GPU), MFU %(mfu)s</source>
        <translation>%(tps)s tokens/s（每 GPU %(per_gpu)s），MFU %(mfu)s</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="165"/>
        <source>%s per GPU</source>
        <translation>每 GPU %s</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="vanished">应用</translation>
    </message>
    <message>
        <source>This is your set-up already</source>
        <translation type="vanished">这已经是当前设置</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="185"/>
        <source>Use the faster layout</source>
        <translation>使用更快的布局</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="146"/>
        <source>No layout of these GPUs fits without offloading to CPU memory, so every plan below waits on PCIe.</source>
        <translation>这些 GPU 的任何布局都必须卸载到 CPU 内存才能放得下，因此下面每个方案都要等待 PCIe 传输。</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="167"/>
        <source>trains in %s</source>
        <translation>训练需 %s</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="174"/>
        <source>Tokens/s</source>
        <translation>tokens/s（吞吐）</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="175"/>
        <source>Tokens/s per GPU</source>
        <translation>每 GPU tokens/s</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="176"/>
        <source>MFU</source>
        <translation>MFU（模型算力利用率）</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="176"/>
        <source>Step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <location filename="../speed_panel.py" line="182"/>
        <source>moves state to CPU memory: steps wait on PCIe</source>
        <translation>把状态移到 CPU 内存：每步要等待 PCIe 传输</translation>
    </message>
</context>
<context>
    <name>SuggestionsPanel</name>
    <message>
        <location filename="../suggestions_panel.py" line="76"/>
        <source>saves %s</source>
        <translation>节省 %s</translation>
    </message>
    <message>
        <location filename="../suggestions_panel.py" line="85"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../suggestions_panel.py" line="86"/>
        <source>Apply this change (Ctrl+Z undoes it)</source>
        <translation>应用此调整（Ctrl+Z 可撤销）</translation>
    </message>
    <message>
        <location filename="../suggestions_panel.py" line="58"/>
        <source>It fits. These changes would serve more users or longer contexts, cheapest change first:</source>
        <translation>已经放得下。以下调整可以服务更多用户或更长的上下文，代价最小的排在前面：</translation>
    </message>
    <message>
        <location filename="../suggestions_panel.py" line="61"/>
        <source>It fits. These changes would add headroom, cheapest change first:</source>
        <translation>已经放得下。以下调整可以增加余量，代价最小的排在前面：</translation>
    </message>
    <message>
        <location filename="../suggestions_panel.py" line="64"/>
        <source>Try these in order (cheapest change first); each shows the memory it saves per GPU and whether that alone makes the run fit:</source>
        <translation>请按顺序尝试（代价最小的排在前面）；每项都列出它在每块 GPU 上节省的显存，以及仅靠这一项能否放得下：</translation>
    </message>
    <message>
        <location filename="../suggestions_panel.py" line="83"/>
        <source>Saves per GPU</source>
        <translation>每块 GPU 节省</translation>
    </message>
    <message>
        <location filename="../suggestions_panel.py" line="94"/>
        <source>No single change saves memory here.</source>
        <translation>没有哪一项调整能单独在这里节省显存。</translation>
    </message>
</context>
<context>
    <name>TimeBar</name>
    <message>
        <location filename="../time_bar.py" line="189"/>
        <source>seconds per step</source>
        <translation>每步秒数</translation>
    </message>
    <message>
        <source>Measured: a rate measured on this GPU or kernel. Derived: counted from the frameworks&apos; and NCCL&apos;s source over datasheet rates. Assumed: a stated figure with no measurement behind it here.</source>
        <translation type="vanished">实测：在这款 GPU 或这个内核上测得的速率。推导：按框架和 NCCL 的源码逐项计数，配以规格表速率。假定：给出的数值，此处没有实测支撑。</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="79"/>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="80"/>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="81"/>
        <source>sequences per engine</source>
        <translation>每个引擎的序列数</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="82"/>
        <source>sequences at once</source>
        <translation>同时生成的序列数</translation>
    </message>
    <message>
        <source>waves</source>
        <translation type="vanished">轮数</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="85"/>
        <source>decode passes (sequences / sequences at once)</source>
        <translation>解码轮数（序列数 / 同时运行的序列数）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="86"/>
        <source>one decode step</source>
        <translation>一个解码步</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="87"/>
        <source>kernel launches per decode step (eager)</source>
        <translation>每个解码步的内核启动（eager）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="88"/>
        <source>of which LoRA kernels of the served adapters</source>
        <translation>其中引擎所服务 LoRA 适配器的内核</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="89"/>
        <source>kernels&apos; fixed time per decode step</source>
        <translation>每个解码步各内核的固定时间</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="90"/>
        <source>tensor-parallel all-reduces per decode step</source>
        <translation>每个解码步的张量并行 all-reduce</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="91"/>
        <source>output processing per decode step (vLLM V0, eager)</source>
        <translation>每个解码步的输出处理（vLLM V0，eager）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="95"/>
        <source>sampler per decode step (vLLM V0)</source>
        <translation>每个解码步的采样器（vLLM V0）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="97"/>
        <source>output processing per step (vLLM V1 in process)</source>
        <translation>每步的输出处理（vLLM V1，进程内）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="99"/>
        <source>decode iterations</source>
        <translation>解码迭代次数</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="100"/>
        <source>longest completion (tokens)</source>
        <translation>最长补全（token 数）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="103"/>
        <source>waiting for the longest completion (one sequence alone without CUDA graphs; a MoE&apos;s or a CUDA-graph decode&apos;s last pass draining)</source>
        <translation>等待最长补全（无 CUDA 图时单个序列独自解码；MoE 或 CUDA 图解码的最后一轮逐个结束）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="107"/>
        <source>the batch built from the outputs (worker and driver, after generate)</source>
        <translation>由输出构建批次（worker 与 driver，generate 之后）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="173"/>
        <source>(%1, %2)</source>
        <translation>（%1，%2）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="174"/>
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="192"/>
        <source>Left out of the legend (%1 a step): %2</source>
        <translation>图例中省略（每步 %1）：%2</translation>
    </message>
    <message>
        <source>output processing per decode step (eager)</source>
        <translation type="vanished">每个解码步的输出处理（eager）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="93"/>
        <source>scheduling and input preparation per decode step (vLLM V0)</source>
        <translation>每个解码步的调度与输入准备（vLLM V0）</translation>
    </message>
    <message>
        <location filename="../time_bar.py" line="96"/>
        <source>engine loop per decode step (vLLM V1)</source>
        <translation>每个解码步的引擎循环（vLLM V1）</translation>
    </message>
</context>
<context>
    <name>TimePanel</name>
    <message>
        <location filename="../time_panel.py" line="235"/>
        <source>This GPU cannot run this plan as stated: time shown for reference only.</source>
        <translation>此 GPU 无法按所述方式运行此方案：时间仅供参考。</translation>
    </message>
    <message>
        <source>e.g. 15T, 300B or 2e12 (empty: not asked)</source>
        <translation type="vanished">例如 15T、300B 或 2e12（留空：不计算）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="86"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="94"/>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="95"/>
        <source>Use my measurement</source>
        <translation>使用我的实测值</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="96"/>
        <source>Scale every time by measured / predicted step time; kept with the scenario</source>
        <translation>按 实测/预测 的每步时间比例缩放所有时间；随场景保存</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="99"/>
        <source>Forget it</source>
        <translation>清除</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="101"/>
        <source>Forget the measured step time</source>
        <translation>清除实测的每步时间</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="108"/>
        <location filename="../time_panel.py" line="280"/>
        <source>Tokens to train</source>
        <translation>训练 token 总数</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="110"/>
        <source>currency not named</source>
        <translation>未指定币种</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="111"/>
        <source>The currency of the price: named beside every cost</source>
        <translation>价格所用的币种：显示在每项费用旁边</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="112"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="116"/>
        <location filename="../time_panel.py" line="285"/>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="117"/>
        <source>Measured step time</source>
        <translation>实测每步时间</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="174"/>
        <source>&lt;b&gt;%(step)s&lt;/b&gt; per optimizer step · &lt;b&gt;%(tps)s&lt;/b&gt; tokens/s · MFU &lt;b&gt;%(mfu)s&lt;/b&gt;</source>
        <translation>每个优化器步 &lt;b&gt;%(step)s&lt;/b&gt; · &lt;b&gt;%(tps)s&lt;/b&gt; tokens/s · MFU &lt;b&gt;%(mfu)s&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="175"/>
        <source>%(tokens)s tokens per step on %(n)s GPUs</source>
        <translation>%(n)s 块 GPU 上每步 %(tokens)s 个 token</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="180"/>
        <source>%(mfu)s of the bf16 peak</source>
        <translation>相对 bf16 峰值为 %(mfu)s</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="182"/>
        <source>%(mfu)s with attention counted whole, as torchtitan prints it</source>
        <translation>注意力全量计入时为 %(mfu)s，即 torchtitan 打印的值</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="185"/>
        <source> (%(figures)s)</source>
        <translation>（%(figures)s）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="185"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source> (%(mfu)s of the bf16 peak)</source>
        <translation type="vanished">（相对 bf16 峰值为 %(mfu)s）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="188"/>
        <source> · %(likely)s per step</source>
        <translation> · 每步%(likely)s</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="192"/>
        <source> (checked against %(runs)d measured post-training runs of %(sources)s)</source>
        <translation>（已对照 %(sources)s的 %(runs)d 次实测后训练运行）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="209"/>
        <source>Time to train: &lt;b&gt;%(time)s&lt;/b&gt; (%(steps)s steps) · %(hours)s</source>
        <translation>训练总时长：&lt;b&gt;%(time)s&lt;/b&gt;（%(steps)s 步）· %(hours)s</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="276"/>
        <source>Tokens to train: write a positive number such as 15T, 300B, 2e12 or 500 steps.</source>
        <translation>训练 token 总数：请写一个正数，例如 15T、300B、2e12 或 500 步。</translation>
    </message>
    <message>
        <source> (checked against %(runs)d measured post-training runs of %(sources)d source(s); hover for each phase)</source>
        <translation type="vanished">（已对照 %(sources)d 个来源的 %(runs)d 次实测后训练运行；悬停查看各阶段）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="201"/>
        <source>The likely range: 8 in 10 published runs (%(regime)s: %(runs)d from %(sources)d sources) came within these multiples of their estimate, and about 8 in 10 runs of sources left out of it.</source>
        <translation>可能范围：已发表运行中每 10 个有 8 个（%(regime)s：%(runs)d 个，来自 %(sources)d 个来源）的实测值落在其估算的这些倍数之内；未用于得出该范围的来源的运行中，约每 10 个有 8 个也落在其中。</translation>
    </message>
    <message>
        <source>Time to train: &lt;b&gt;%(time)s&lt;/b&gt; (%(steps)s steps) · %(hours)s GPU-hours</source>
        <translation type="vanished">训练总时长：&lt;b&gt;%(time)s&lt;/b&gt;（%(steps)s 步）· %(hours)s GPU 小时</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="224"/>
        <source>Enter the tokens to train (or the steps: &quot;500 steps&quot;) for the time to train, GPU-hours and cost.</source>
        <translation>填写训练 token 总数（或步数，如“500 步”），即可得到训练总时长、GPU 小时和费用。</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="255"/>
        <source>The engine does not start with this set-up: no speed.</source>
        <translation>按此配置推理引擎无法启动：没有速度可显示。</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="172"/>
        <source>&lt;b&gt;%(step)s&lt;/b&gt; per optimizer step · &lt;b&gt;%(tps)s&lt;/b&gt; tokens/s (%(per_gpu)s per GPU) · MFU &lt;b&gt;%(mfu)s&lt;/b&gt;</source>
        <translation>每个优化器步 &lt;b&gt;%(step)s&lt;/b&gt; · &lt;b&gt;%(tps)s&lt;/b&gt; tokens/s（每 GPU %(per_gpu)s）· MFU &lt;b&gt;%(mfu)s&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="81"/>
        <source>e.g. 15T, 300B, 2e12 or 500 steps (empty: not asked)</source>
        <translation>例如 15T、300B、2e12 或 500 步（留空：不计算）</translation>
    </message>
    <message>
        <source>%(tokens)s tokens per step on %(n)d GPUs</source>
        <translation type="vanished">%(n)d 块 GPU 上每步 %(tokens)s 个 token</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="176"/>
        <source>%(tokens)s tokens per step on one GPU</source>
        <translation>1 块 GPU 上每步 %(tokens)s 个 token</translation>
    </message>
    <message>
        <source> · likely %(low)s to %(high)s per step</source>
        <translation type="vanished"> · 每步可能为 %(low)s 至 %(high)s</translation>
    </message>
    <message>
        <source>The likely range: 8 in 10 published runs (%(regime)s: %(runs)d from %(sources)d sources) measured within this spread of their estimate, and about 8 in 10 runs of sources left out of it.</source>
        <translation type="vanished">可能范围：已发表运行中每 10 个有 8 个（%(regime)s：%(runs)d 个，来自 %(sources)d 个来源）的实测值落在其估算的这一范围内；未用于得出该范围的来源的运行中，约每 10 个有 8 个也落在其中。</translation>
    </message>
    <message>
        <source>Time to train: &lt;b&gt;%(time)s&lt;/b&gt; · %(hours)s GPU-hours</source>
        <translation type="vanished">训练总时长：&lt;b&gt;%(time)s&lt;/b&gt; · %(hours)s GPU 小时</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="216"/>
        <source> · cost &lt;b&gt;%s&lt;/b&gt;</source>
        <translation> · 费用 &lt;b&gt;%s&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Enter the tokens to train for the time to train, GPU-hours and cost.</source>
        <translation type="vanished">填写训练 token 总数，即可得到训练总时长、GPU 小时和费用。</translation>
    </message>
    <message>
        <source>A million output tokens cost &lt;b&gt;%(cost)s %(currency)s&lt;/b&gt; on %(n)d GPUs</source>
        <translation type="vanished">在 %(n)d 块 GPU 上，一百万个输出 token 的成本为 &lt;b&gt;%(cost)s %(currency)s&lt;/b&gt;</translation>
    </message>
    <message>
        <source>A million output tokens cost &lt;b&gt;%(cost)s&lt;/b&gt; (in the price&apos;s currency) on %(n)d GPUs</source>
        <translation type="vanished">在 %(n)d 块 GPU 上，一百万个输出 token 的成本为 &lt;b&gt;%(cost)s&lt;/b&gt;（按价格所用货币计）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="262"/>
        <source>Enter a price per GPU-hour for the cost of a million output tokens.</source>
        <translation>输入每 GPU 小时的价格，即可得到一百万个输出 token 的成本。</translation>
    </message>
    <message>
        <source>Tokens to train: write a positive number such as 15T, 300B or 2e12.</source>
        <translation type="vanished">训练 token 总数：请写一个正数，例如 15T、300B 或 2e12。</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="290"/>
        <source>Enter the step time you measured, in seconds, first.</source>
        <translation>请先填写实测的每步时间（秒）。</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="299"/>
        <source>Calibrate the time from a measured step</source>
        <translation>用实测的一步校准时间</translation>
    </message>
    <message>
        <location filename="../estimates.py" line="91"/>
        <source>The step time of this scenario cannot be computed (%1); the memory estimate is unaffected.</source>
        <translation>无法计算此场景的每步时间（%1）；显存估算不受影响。</translation>
    </message>
    <message>
        <location filename="../compare_ranges.py" line="91"/>
        <location filename="../time_panel.py" line="310"/>
        <source>Step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <location filename="../compare_ranges.py" line="92"/>
        <location filename="../time_panel.py" line="311"/>
        <source>Tokens/s</source>
        <translation>tokens/s（吞吐）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="312"/>
        <source>Tokens/s per GPU</source>
        <translation>每 GPU tokens/s</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="314"/>
        <source>MFU</source>
        <translation>MFU（模型算力利用率）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="316"/>
        <source>Time to train</source>
        <translation>训练总时长</translation>
    </message>
    <message>
        <location filename="../compare_ranges.py" line="88"/>
        <location filename="../time_panel.py" line="318"/>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <location filename="../compare_ranges.py" line="88"/>
        <location filename="../time_panel.py" line="321"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="87"/>
        <source>Price of one GPU for one hour, in any currency: the cost is shown in the same currency</source>
        <translation>一块 GPU 一小时的价格，任意货币：费用以同一货币显示</translation>
    </message>
    <message>
        <source> (checked against %(runs)d measured post-training runs of %(sources)s; hover for each phase)</source>
        <translation type="vanished">（已对照 %(sources)s的 %(runs)d 次实测后训练运行；悬停查看各阶段）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="218"/>
        <source> · cost &lt;b&gt;%s&lt;/b&gt; (in the price&apos;s currency)</source>
        <translation> · 费用 &lt;b&gt;%s&lt;/b&gt;（与价格同一货币）</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="233"/>
        <source>This plan does not fit: time shown for reference only.</source>
        <translation>此方案放不下：时间仅供参考。</translation>
    </message>
    <message>
        <location filename="../time_panel.py" line="228"/>
        <source>Near the memory limit: the step may run slower than shown (allocator retries, see the note below).</source>
        <translation>接近显存上限：这一步可能比显示的更慢（分配器重试，见下方说明）。</translation>
    </message>
</context>
<context>
    <name>UsersChart</name>
    <message>
        <location filename="../users_chart.py" line="39"/>
        <location filename="../users_chart.py" line="82"/>
        <source>users at once</source>
        <translation>同时服务的用户</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="40"/>
        <source>context per user (tokens)</source>
        <translation>每个用户的上下文（token）</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="65"/>
        <source>The users chart is for Serve mode.</source>
        <translation>用户图表用于推理服务模式。</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="81"/>
        <source>slots the memory holds</source>
        <translation>内存容纳的槽位数</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="114"/>
        <source>At %1 tokens per user: %2 at once.</source>
        <translation>每个用户 %1 个 token 时：同时 %2 个。</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="118"/>
        <source>The engine decodes %1 at once, its slots (n_parallel%2); the bars are the slots the GPUs&apos; memory would hold at each length, what n_parallel could be set to.</source>
        <translation>引擎同时解码 %1 个请求，即其槽位数（n_parallel%2）；柱形是 GPU 内存在各长度下可容纳的槽位数，即 n_parallel 可设的值。</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="120"/>
        <source>, dashed line</source>
        <translation>，虚线</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="122"/>
        <source>The GPUs&apos; memory holds %1 slots of this length.</source>
        <translation>GPU 显存可容纳 %1 个这么长的槽位。</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="124"/>
        <source>%1 engine instances (each tensor × pipeline parallel group serves alone).</source>
        <translation>%1 个引擎实例（每个张量 × 流水线并行组独立服务）。</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="127"/>
        <source>The engine decodes at most %1 at once (max_num_seqs, dashed line).</source>
        <translation>引擎最多同时解码 %1 个（max_num_seqs，虚线）。</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="130"/>
        <source>The engine decodes at most %1 at once (max_num_seqs).</source>
        <translation>引擎最多同时解码 %1 个（max_num_seqs）。</translation>
    </message>
    <message>
        <location filename="../users_chart.py" line="133"/>
        <source>Images count in a user&apos;s context like text (up to %1 tokens an image), and vLLM keeps %2 from the KV cache to encode images.</source>
        <translation>图像像文本一样计入每个用户的上下文（每张图像最多 %1 个 token），vLLM 还从 KV 缓存中留出 %2 用于编码图像。</translation>
    </message>
</context>
<context>
    <name>VerdictBanner</name>
    <message>
        <location filename="../results.py" line="74"/>
        <source>but this GPU cannot run it as stated (see the warnings)</source>
        <translation>但此 GPU 无法按所述方式运行它（见警告）</translation>
    </message>
    <message>
        <location filename="../results.py" line="65"/>
        <source>FITS</source>
        <translation>放得下</translation>
    </message>
    <message>
        <location filename="../results.py" line="65"/>
        <source>DOES NOT FIT</source>
        <translation>放不下</translation>
    </message>
    <message>
        <location filename="../results.py" line="64"/>
        <source>TIGHT: fits, but eats into the safety reserve</source>
        <translation>紧张：放得下，但占用了安全余量</translation>
    </message>
    <message>
        <location filename="../results.py" line="62"/>
        <source>TIGHT: the generation engine may not start</source>
        <translation>紧张：生成引擎可能无法启动</translation>
    </message>
    <message>
        <location filename="../results.py" line="63"/>
        <source>TIGHT: not every user at once</source>
        <translation>紧张：无法同时容纳所有用户</translation>
    </message>
    <message>
        <location filename="../results.py" line="67"/>
        <source>the generation engine&apos;s start is within its accounting&apos;s uncertainty (below)</source>
        <translation>生成引擎能否启动处在其显存核算的误差范围内（见下方）</translation>
    </message>
    <message>
        <location filename="../results.py" line="76"/>
        <source> (pipeline stage %d is the fullest)</source>
        <translation>（流水线阶段 %d 最满）</translation>
    </message>
    <message>
        <location filename="../results.py" line="84"/>
        <source>%(used)s of %(cap)s on each of %(n)s × %(gpu)s training and %(engine_used)s on each of %(engine)s × %(gpu)s running the generation engine — %(room)s%(where)s</source>
        <translation>%(n)s × %(gpu)s 训练，每块已用 %(used)s / %(cap)s；%(engine)s × %(gpu)s 运行生成引擎，每块已用 %(engine_used)s — %(room)s%(where)s</translation>
    </message>
    <message>
        <source>%(used)s of %(cap)s on each of %(n)s × %(gpu)s training and %(engine)s × %(gpu)s running the generation engine — %(room)s%(where)s</source>
        <translation type="vanished">%(n)s × %(gpu)s 训练、%(engine)s × %(gpu)s 运行生成引擎，每块已用 %(used)s / %(cap)s — %(room)s%(where)s</translation>
    </message>
    <message>
        <location filename="../results.py" line="89"/>
        <source>%(used)s of %(cap)s on each of %(n)s × %(gpu)s — %(room)s%(where)s</source>
        <translation>%(n)s × %(gpu)s，每块已用 %(used)s / %(cap)s — %(room)s%(where)s</translation>
    </message>
    <message>
        <source>%(used)s of %(cap)s on each of %(n)d × %(gpu)s — %(room)s%(where)s</source>
        <translation type="vanished">%(n)d × %(gpu)s，每块已用 %(used)s / %(cap)s — %(room)s%(where)s</translation>
    </message>
</context>
<context>
    <name>VisionRows</name>
    <message>
        <location filename="../vision_rows.py" line="27"/>
        <source>Images per sequence (images per sample)</source>
        <translation>每个序列的图像数（每样本图像数）</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="30"/>
        <source>the tower&apos;s native size</source>
        <translation>编码器的原生尺寸</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="31"/>
        <source>Image side in pixels (image resolution)</source>
        <translation>图像边长像素（图像分辨率）</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="33"/>
        <source>not trained (frozen tower)</source>
        <translation>不训练（冻结编码器）</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="34"/>
        <source>trained with the model (trained tower)</source>
        <translation>与模型一起训练（训练编码器）</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="35"/>
        <source>not trained, back-propagated for its input (ms-swift&apos;s vit_gradient_checkpointing)</source>
        <translation>不训练，但为其输入梯度反向传播（ms-swift 的 vit_gradient_checkpointing）</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="38"/>
        <source>Image encoder (vision tower)</source>
        <translation>图像编码器（视觉塔）</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="44"/>
        <source>Images in each training sequence. Their tokens are part of the sequence length; a trained image encoder keeps activations for every image patch.</source>
        <translation>每个训练序列中的图像数。图像的 token 计入序列长度；训练图像编码器时，每个图像块的激活值都要保留。</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="47"/>
        <source>Side of each (square) image in pixels. Towers that read any size make more patches and tokens from larger images (Qwen2.5-VL, Pixtral); fixed-size towers resize every image (Gemma 3, Llama 4 tiles).</source>
        <translation>每张（正方形）图像的边长（像素）。可读任意尺寸的编码器会从更大的图像生成更多图像块和 token（Qwen2.5-VL、Pixtral）；固定尺寸的编码器会缩放每张图像（Gemma 3，Llama 4 分块）。</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="50"/>
        <source>Whether the image encoder and its projector are trained. Trained: their gradients, optimizer states and activations for every patch; frozen: only their weights. LoRA and QLoRA keep it frozen. Frozen, back-propagated: no gradient of its own, but the framework checkpoints its blocks and runs its backward for the input gradients, each block again first (time), keeping each block&apos;s input (memory).</source>
        <translation>是否训练图像编码器及其投影层。训练：需要它们的梯度、优化器状态和每个图像块的激活值；冻结：只需要它们的权重。LoRA 和 QLoRA 保持其冻结。冻结但仍反向传播：编码器没有自己的梯度，但框架对其各块做梯度检查点，并为输入梯度运行其反向传播，每块先重新前向一次（时间），并保留每块的输入（显存）。</translation>
    </message>
    <message>
        <source>Whether the image encoder and its projector are trained. Trained: their gradients, optimizer states and activations for every patch; frozen: only their weights. LoRA and QLoRA keep it frozen.</source>
        <translation type="vanished">是否训练图像编码器及其投影层。训练：需要它们的梯度、优化器状态和每个图像块的激活值；冻结：只需要它们的权重。LoRA 和 QLoRA 保持其冻结。</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="74"/>
        <source>Each image: %1 patches in the tower, %2 tokens of the sequence.</source>
        <translation>每张图像：编码器中 %1 个图像块，序列中 %2 个 token。</translation>
    </message>
    <message>
        <location filename="../vision_rows.py" line="77"/>
        <source>The images need %1 tokens, more than the sequence length.</source>
        <translation>这些图像需要 %1 个 token，超过了序列长度。</translation>
    </message>
</context>
<context>
    <name>cli</name>
    <message>
        <location filename="../../engine/estimate_output.py" line="204"/>
        <source>This GPU cannot run this plan as stated: time shown for reference only.</source>
        <translation>此 GPU 无法按所述方式运行此方案：时间仅供参考。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="178"/>
        <source>but this GPU cannot run it as stated (see the warning)</source>
        <translation>但此 GPU 无法按所述方式运行它（见警告）</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="116"/>
        <source>overhead</source>
        <translation>额外开销</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="118"/>
        <source>Component</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="118"/>
        <source>Memory ({unit})</source>
        <translation>显存（{unit}）</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="119"/>
        <source> Share</source>
        <translation> 占比</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="119"/>
        <source>Lives in</source>
        <translation>所在阶段</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="122"/>
        <source>{name}: {model} on {n} x {gpu} ({estimator})</source>
        <translation>{name}：{model}，{n} × {gpu}（{estimator}）</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="128"/>
        <source> &lt;- peak</source>
        <translation> &lt;- 峰值</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="129"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="129"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="130"/>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="134"/>
        <source>Phase peaks: {phases}</source>
        <translation>各阶段峰值：{phases}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="138"/>
        <source>Post-training step ({objective}), allocated per phase: {phases}</source>
        <translation>后训练步骤（{objective}），各阶段已分配显存：{phases}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="141"/>
        <source>Each training GPU {training} with its overheads and safety reserve; each generation engine GPU {engine}, judged by the engine&apos;s start-up check (no reserve on top of its share).</source>
        <translation>每块训练 GPU {training}（含开销和安全预留）；每块生成引擎 GPU {engine}，由引擎的启动检查判断（在其份额之上不再加预留）。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="146"/>
        <source>stage {n}: {total}</source>
        <translation>流水线阶段 {n}：{total}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="148"/>
        <source>Per pipeline stage: {stages}</source>
        <translation>各流水线阶段：{stages}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="150"/>
        <source>GPUs that hold less: {ranks} {total} (peak allocated {peak}).</source>
        <translation>占用较少的 GPU：{ranks} {total}（分配峰值 {peak}）。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="154"/>
        <source>{cache}: not estimated</source>
        <translation>{cache}：未估算</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="155"/>
        <source>Reserved by PyTorch {reserved}</source>
        <translation>PyTorch 预留 {reserved}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="157"/>
        <source>{reserved}; process (as {tool} shows it) {process}; loading the model {load}; host memory per node {host}.</source>
        <translation>{reserved}；进程占用（{tool} 所示）{process}；加载模型 {load}；每节点主机内存 {host}。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="236"/>
        <source>Time to train: {time} ({steps} steps), {hours}</source>
        <translation>训练总时长：{time}（{steps} 步），{hours}</translation>
    </message>
    <message>
        <source>Reserved by PyTorch {reserved}; process (as {tool} shows it) {process}; loading the model {load}; host memory per node {host}.</source>
        <translation type="vanished">PyTorch 预留 {reserved}；进程占用（{tool} 所示）{process}；加载模型 {load}；每节点主机内存 {host}。</translation>
    </message>
    <message>
        <source>Reserved by PyTorch {reserved}; process (as nvidia-smi shows it) {process}; loading the model {load}; host memory per node {host}.</source>
        <translation type="vanished">PyTorch 预留 {reserved}；进程占用（nvidia-smi 所示）{process}；加载模型 {load}；每节点主机内存 {host}。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="162"/>
        <source>Peak allocated {peak}; with overheads and reserve {total} of {capacity} per GPU.</source>
        <translation>峰值分配 {peak}；加上额外开销和安全余量，每张 GPU 共 {total}，容量 {capacity}。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="169"/>
        <source>Verdict: {verdict} (headroom {bytes} per GPU)</source>
        <translation>结论：{verdict}（每张 GPU 余量 {bytes}）</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="173"/>
        <source>Verdict: {verdict} ({room})</source>
        <translation>结论：{verdict}（{room}）</translation>
    </message>
    <message>
        <location filename="../../engine/cli.py" line="69"/>
        <location filename="../../engine/estimate_output.py" line="179"/>
        <source>Warning: {text}</source>
        <translation>警告：{text}</translation>
    </message>
    <message>
        <location filename="../../engine/cli.py" line="85"/>
        <source>More plans and the limits: python main.py fit {file}</source>
        <translation>更多方案和上限：python main.py fit {file}</translation>
    </message>
    <message>
        <location filename="../../engine/cli.py" line="65"/>
        <source>{name}: {model} on {n} x {gpu} ({engine}, {fmt})</source>
        <translation>{name}：{model}，{n} × {gpu}（{engine}，{fmt}）</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="206"/>
        <source>Time: {step} per step, {tps} tokens/s ({per_gpu} per GPU), MFU {mfu:.0%}</source>
        <translation>时间：每步 {step}，{tps} tokens/s（每 GPU {per_gpu}），MFU {mfu:.0%}</translation>
    </message>
    <message>
        <source>Likely {low} to {high} per step: 8 in 10 published runs ({regime}: {runs} from {sources} sources) measured within this spread of their estimate</source>
        <translation type="vanished">每步可能为 {low} 至 {high}：已发表运行中每 10 个有 8 个（{regime}：{runs} 个，来自 {sources} 个来源）的实测值落在其估算的这一范围内</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="201"/>
        <location filename="../../engine/estimate_output.py" line="233"/>
        <source>Where the time goes: {parts}</source>
        <translation>时间花在：{parts}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="208"/>
        <source>Time: {step} per step, {tps} tokens/s, MFU {mfu:.0%}</source>
        <translation>时间：每步 {step}，{tps} tokens/s，MFU {mfu:.0%}</translation>
    </message>
    <message>
        <source> ({mfu:.0%} of the bf16 peak)</source>
        <translation type="vanished">（相对 bf16 峰值为 {mfu:.0%}）</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="224"/>
        <source>Range: {likely} per step; 8 in 10 published runs ({regime}: {runs} from {sources} sources) came within these multiples of their estimate</source>
        <translation>范围：每步{likely}；已发表运行中每 10 个有 8 个（{regime}：{runs} 个，来自 {sources} 个来源）的实测值落在其估算的这些倍数之内</translation>
    </message>
    <message>
        <source>Time to train: {time}, {hours} GPU-hours</source>
        <translation type="vanished">训练总时长：{time}，{hours} GPU 小时</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="240"/>
        <source>, cost {cost}</source>
        <translation>，费用 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="247"/>
        <source>Note: {text}</source>
        <translation>注：{text}</translation>
    </message>
    <message>
        <location filename="../../engine/cli.py" line="412"/>
        <source>error: {message}</source>
        <translation>错误：{message}</translation>
    </message>
    <message>
        <location filename="../../engine/cli.py" line="415"/>
        <source>error: this scenario cannot be estimated ({message}); please report it.</source>
        <translation>错误：无法估算此场景（{message}）；请报告此问题。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="71"/>
        <location filename="../../engine/planning/serve_fit.py" line="174"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="73"/>
        <source>Verdict: {verdict}</source>
        <translation>结论：{verdict}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="75"/>
        <source>Limits on this hardware (everything else unchanged):</source>
        <translation>此硬件上的上限（其他设置不变）：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="76"/>
        <source>Limits for the layout {framework} can run ({settings}), everything else unchanged:</source>
        <translation>{framework} 能运行的布局（{settings}）下的上限，其余不变：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="78"/>
        <source>  largest micro-batch that fits: {value}</source>
        <translation>  能放下的最大微批次：{value}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="58"/>
        <source>none (1 does not fit)</source>
        <translation>无（1 都放不下）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="80"/>
        <source>  longest sequence that fits: {value}</source>
        <translation>  能放下的最长序列：{value}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="81"/>
        <source>none (128 does not fit)</source>
        <translation>无（128 都放不下）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="82"/>
        <source>{n} tokens (exact to a multiple of {step})</source>
        <translation>{n} 个 token（精确到 {step} 的倍数）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="95"/>
        <location filename="../../engine/planning/rent_report.py" line="229"/>
        <location filename="../../engine/planning/serve_rent_report.py" line="132"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="218"/>
        <location filename="../../engine/planning/fit_report.py" line="96"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="109"/>
        <source>Largest {family} model that fits the layout {framework} can run ({settings}): {model}</source>
        <translation>在 {framework} 能运行的布局（{settings}）下能装下的最大 {family} 模型：{model}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="119"/>
        <source>data parallel only</source>
        <translation>仅数据并行</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="120"/>
        <source>ZeRO-3 / FSDP</source>
        <translation>ZeRO-3 / FSDP</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="121"/>
        <source>ZeRO-2, the deepest sharding {framework} has</source>
        <translation>ZeRO-2，{framework} 支持的最深分片</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="122"/>
        <source>ZeRO-1, the only sharding {framework} has</source>
        <translation>ZeRO-1，{framework} 唯一支持的分片</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="125"/>
        <source>TP in a node, then PP (TP and PP only)</source>
        <translation>节点内 TP，再加 PP（仅 TP 和 PP）</translation>
    </message>
    <message>
        <source>TP in a node, then PP</source>
        <translation type="vanished">节点内 TP，再加 PP</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="126"/>
        <source>TP in a node ({framework} has no PP)</source>
        <translation>节点内 TP（{framework} 不支持 PP）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="127"/>
        <source>PP ({framework} has no TP)</source>
        <translation>PP（{framework} 不支持 TP）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="128"/>
        <source>  fewest GPUs, ZeRO-3 / FSDP: none, {framework} has no sharding</source>
        <translation>  最少 GPU 数，ZeRO-3 / FSDP：无，{framework} 不支持分片</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="129"/>
        <source>  fewest GPUs, TP/PP: none, {framework} has neither</source>
        <translation>  最少 GPU 数，TP/PP：无，{framework} 两者都不支持</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="136"/>
        <source>  fewest GPUs, {strategy}: {value}</source>
        <translation>  最少 GPU 数（{strategy}）：{value}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="138"/>
        <source>none up to {n}</source>
        <translation>{n} 张以内都不够</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="141"/>
        <source>  (each count splits the generation engine over as many GPUs as it can, up to a node)</source>
        <translation>  （每个数量都把生成引擎拆分到尽可能多的 GPU 上，最多一个节点）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="86"/>
        <source>Plans, least disruptive first:</source>
        <translation>方案（按影响从小到大排列）：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="60"/>
        <source>{n} or more (the most searched)</source>
        <translation>{n} 及以上（已搜索到上限）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="88"/>
        <source>Plans: none needed, it fits.</source>
        <translation>方案：不需要，已经放得下。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="90"/>
        <source>Plans: none found.</source>
        <translation>方案：没有找到。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="93"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="94"/>
        <source> and </source>
        <translation>，并</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="97"/>
        <source>no extra cost to speak of</source>
        <translation>几乎没有额外代价</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="99"/>
        <source>{total} per GPU, headroom {headroom}; assumptions changed: {changed}</source>
        <translation>每张 GPU {total}，余量 {headroom}；改变的假设：{changed}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="103"/>
        <source>cost: {cost}</source>
        <translation>代价：{cost}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_report.py" line="108"/>
        <source>Largest {family} model that fits this set-up: {model}</source>
        <translation>按此设置能放下的最大 {family} 模型：{model}</translation>
    </message>
    <message>
        <source>Read {n} file(s): {formats}</source>
        <translation type="vanished">已读取 {n} 个文件：{formats}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/review.py" line="22"/>
        <source>Read one file: {formats}</source>
        <translation>已读取 1 个文件：{formats}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/review.py" line="23"/>
        <source>Read {n} files: {formats}</source>
        <translation>已读取 {n} 个文件：{formats}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/review.py" line="27"/>
        <source>Scenario:</source>
        <translation>方案：</translation>
    </message>
    <message>
        <location filename="../../engine/configs/review.py" line="30"/>
        <source>Mapped:</source>
        <translation>已映射：</translation>
    </message>
    <message>
        <location filename="../../engine/configs/review.py" line="33"/>
        <source>Assumed:</source>
        <translation>已假定：</translation>
    </message>
    <message>
        <location filename="../../engine/configs/review.py" line="36"/>
        <source>Not used:</source>
        <translation>未使用：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_report.py" line="48"/>
        <source>, trains in {time}</source>
        <translation>，训练需 {time}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_report.py" line="57"/>
        <source>As it is: {verdict}, {tps} tokens/s ({step} per step)</source>
        <translation>当前：{verdict}，{tps} tokens/s（每步 {step}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_report.py" line="60"/>
        <source>Fastest layouts that fit, same training (same GPUs, global batch, method and numerics):</source>
        <translation>放得下的最快布局，训练内容不变（同样的 GPU、全局 batch、方法和数值格式）：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_report.py" line="73"/>
        <source>{i}. {tps} tokens/s ({per_gpu} per GPU), MFU {mfu:.0%}{days}, {total} per GPU: {changes}</source>
        <translation>{i}. {tps} tokens/s（每 GPU {per_gpu}），MFU {mfu:.0%}{days}，每 GPU {total}：{changes}</translation>
    </message>
    <message>
        <source>{hours:,.0f} GPU-hours x {price} = {cost}</source>
        <translation type="vanished">{hours:,.0f} GPU 小时 × {price} = {cost}</translation>
    </message>
    <message>
        <source>{hours:,.0f} GPU-hours (no price set)</source>
        <translation type="vanished">{hours:,.0f} GPU 小时（未设价格）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="195"/>
        <source>{hours} GPU-hours x {price} = {cost}</source>
        <translation>{hours} GPU 小时 × {price} = {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="198"/>
        <source>{hours} GPU-hours (no price set)</source>
        <translation>{hours} GPU 小时（未设价格）</translation>
    </message>
    <message>
        <source>{n} x {gpu} ({nodes} node(s)): {cost}; trains in {time} at MFU {mfu:.0%}; layout {layout}</source>
        <translation type="vanished">{n} × {gpu}（{nodes} 个节点）：{cost}；训练用时 {time}，MFU {mfu:.0%}；布局 {layout}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="214"/>
        <source>deadline {time}</source>
        <translation>截止期限 {time}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="217"/>
        <source>budget {cost}</source>
        <translation>预算 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="219"/>
        <source>no deadline: options taking more than {time} are left out as impractical; set --deadline-days to compare longer runs</source>
        <translation>未设截止时间：耗时超过 {time} 的方案视为不切实际而略去；设置 --deadline-days 即可比较更长的训练</translation>
    </message>
    <message>
        <source>What to rent for {tokens:,} tokens ({limits}), cheapest first:</source>
        <translation type="vanished">训练 {tokens:,} 个 token 该租什么（{limits}），最便宜的在前：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="161"/>
        <source>{counts} x {name}: {why}</source>
        <translation>{counts} × {name}：{why}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="162"/>
        <source>{name}: {why}</source>
        <translation>{name}：{why}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="199"/>
        <source>1 node</source>
        <translation>1 个节点</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="199"/>
        <source>{n} nodes</source>
        <translation>{n} 个节点</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="201"/>
        <source>{n} x {gpu} ({nodes}): {cost}; trains in {time} at MFU {mfu:.0%}; layout {layout}</source>
        <translation>{n} × {gpu}（{nodes}）：{cost}；训练用时 {time}，MFU {mfu:.0%}；布局 {layout}</translation>
    </message>
    <message>
        <source>What to rent for {tokens:,} tokens ({limits}), cheapest first (costs within {tie} of each other count as equal: fewer GPUs first):</source>
        <translation type="vanished">训练 {tokens:,} 个 token 该租什么（{limits}），最便宜的在前（费用相差不到 {tie} 的视为相同：GPU 少的在前）：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="225"/>
        <source>What to rent for {tokens} tokens ({limits}), cheapest first (costs within {tie} of each other count as equal: fewer GPUs first):</source>
        <translation>训练 {tokens} 个 token 该租什么（{limits}），最便宜的在前（费用相差不到 {tie} 的视为相同：GPU 少的在前）：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="229"/>
        <source>no limits</source>
        <translation>无限制</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="232"/>
        <location filename="../../engine/planning/serve_rent_report.py" line="176"/>
        <location filename="../../engine/planning/speed_report.py" line="63"/>
        <source>none found</source>
        <translation>没有找到</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="235"/>
        <source>{total} per GPU, {host} CPU memory per node; {capacity}</source>
        <translation>每 GPU {total}，每节点 CPU 内存 {host}；{capacity}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="245"/>
        <location filename="../../engine/planning/serve_rent_report.py" line="182"/>
        <source>Left out:</source>
        <translation>未入选：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="250"/>
        <source>One checkpoint: {size} ({formula}).</source>
        <translation>一个检查点：{size}（{formula}）。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="254"/>
        <source>Cost is GPU-hours x price only: no storage, network or host prices are added.</source>
        <translation>费用仅为 GPU 小时 × 价格：不计存储、网络或主机费用。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="256"/>
        <source>Searched {gpus} GPU types, {searches} layout searches ({estimates} memory estimates) in {seconds}.</source>
        <translation>搜索了 {gpus} 种 GPU、{searches} 次布局搜索（{estimates} 次显存估算），用时 {seconds}。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="257"/>
        <source>Searched 1 GPU type, {searches} layout searches ({estimates} memory estimates) in {seconds}.</source>
        <translation>搜索了 1 种 GPU、{searches} 次布局搜索（{estimates} 次显存估算），用时 {seconds}。</translation>
    </message>
    <message>
        <source>Searched {gpus} GPU type(s), {searches} layout searches ({estimates} memory estimates) in {seconds}.</source>
        <translation type="vanished">搜索了 {gpus} 种 GPU、{searches} 次布局搜索（{estimates} 次显存估算），用时 {seconds}。</translation>
    </message>
    <message>
        <source>{i}. {tps} tokens/s ({per_gpu} per GPU), MFU {mfu:.0%}, {total} per GPU: {changes}</source>
        <translation type="vanished">{i}. {tps} tokens/s（每 GPU {per_gpu}），MFU {mfu:.0%}，每 GPU {total}：{changes}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_report.py" line="81"/>
        <source>Faster or fitting only if you change what you train:</source>
        <translation>只有改变训练内容才更快或放得下：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_report.py" line="84"/>
        <source>Searched {layouts} layouts ({estimates} memory estimates) in {seconds}.</source>
        <translation>用 {seconds} 搜索了 {layouts} 种布局（{estimates} 次显存估算）。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="202"/>
        <location filename="../../engine/serving/report.py" line="224"/>
        <source>This plan does not fit: time shown for reference only.</source>
        <translation>此方案放不下：时间仅供参考。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="213"/>
        <source>{mfu:.0%} of the bf16 peak</source>
        <translation>相对 bf16 峰值为 {mfu:.0%}</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="215"/>
        <source>{mfu:.0%} with attention counted whole, as torchtitan prints it</source>
        <translation>注意力全量计入时为 {mfu:.0%}，即 torchtitan 打印的值</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="218"/>
        <source> ({figures})</source>
        <translation>（{figures}）</translation>
    </message>
    <message>
        <source>Time to train: {time} ({steps} steps), {hours} GPU-hours</source>
        <translation type="vanished">训练总时长：{time}（{steps} 步），{hours} GPU 小时</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="241"/>
        <source>, cost {cost} (in the price&apos;s currency)</source>
        <translation>，费用 {cost}（与价格同一货币）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="160"/>
        <source>{model} on {engine}: {verdict} as set</source>
        <translation>{model} 运行于 {engine}：按当前设置{verdict}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="167"/>
        <source>Largest context: {n} tokens</source>
        <translation>最长上下文：{n} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="168"/>
        <source>Largest context: {n} tokens per user, each of the {slots} slots (n_parallel) that share n_ctx</source>
        <translation>最长上下文：每个用户 {n} 个 token，即共享 n_ctx 的 {slots} 个槽位（n_parallel）中的每一个</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="171"/>
        <source>Largest context: {n} tokens at the estimated KV cache (as `estimate` gives it), {sure} for sure</source>
        <translation>最长上下文：按估算的 KV 缓存为 {n} 个 token（与 `estimate` 给出的相同），确定能启动的为 {sure}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="180"/>
        <source>Most users at once at {length} tokens each: {n} (over {replicas} engine instances)</source>
        <translation>每人 {length} 个 token 时的最多同时用户数：{n}（分布在 {replicas} 个引擎实例上）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="181"/>
        <source>Most users at once at {length} tokens each: {n}</source>
        <translation>每人 {length} 个 token 时的最多同时用户数：{n}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="154"/>
        <location filename="../../engine/planning/serve_fit.py" line="185"/>
        <source>Fewest GPUs: {n}</source>
        <translation>最少 GPU 数：{n}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="151"/>
        <source>Fewest GPUs: none, as a context of {length} tokens is longer than the model was trained for ({trained} tokens); more GPUs cannot help</source>
        <translation>最少 GPU 数：无，因为 {length} 个 token 的上下文超过了模型训练时的长度（{trained} 个 token）；增加 GPU 也无济于事</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="154"/>
        <source>none up to 64</source>
        <translation>64 以内都没有</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="197"/>
        <source>Per GPU: {total} of {capacity}</source>
        <translation>每块 GPU：{total} / {capacity}</translation>
    </message>
    <message>
        <source>KV cache: {tokens} tokens ({blocks} blocks of {block}), {per_token} per token; at {length} tokens per sequence {users} sequences at once; longest single sequence {longest} tokens</source>
        <translation type="vanished">KV 缓存：{tokens} 个 token（{blocks} 个块，每块 {block}），每个 token {per_token}；每条序列 {length} 个 token 时可同时容纳 {users} 条序列；单条序列最长 {longest} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="202"/>
        <source>KV cache: {tokens} tokens ({blocks} blocks of {block}), {per_token} KiB per token; at {length} tokens per sequence {users} sequences at once; longest single sequence {longest} tokens</source>
        <translation>KV 缓存：{tokens} 个 token（{blocks} 个块，每块 {block}），每个 token {per_token} KiB；每条序列 {length} 个 token 时可同时容纳 {users} 条序列；单条序列最长 {longest} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="214"/>
        <source>Verdict: {verdict} - {reason}</source>
        <translation>结论：{verdict} - {reason}</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="225"/>
        <source>Speed at {users} sequences of {context} tokens: time to first token {ttft}, {tpot} per output token, {tps} tokens/s ({bound}-bound)</source>
        <translation>{users} 条 {context} token 的序列时的速度：首 token 时间 {ttft}，每个输出 token {tpot}，{tps} tokens/s（受{bound}限制）</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="17"/>
        <source>asked for</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="18"/>
        <source>GPU in all</source>
        <translation>GPU 总量</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="19"/>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="20"/>
        <source>this process</source>
        <translation>本进程</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="21"/>
        <source>allocated by PyTorch</source>
        <translation>PyTorch 已分配</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="22"/>
        <source>reserved, unallocated</source>
        <translation>已预留未分配</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="39"/>
        <source>Out-of-memory message ({wording}, {backend})</source>
        <translation>显存不足报错（{wording}，{backend}）</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="42"/>
        <source> on GPU {index}</source>
        <translation>，GPU {index}</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="44"/>
        <source>, in the {phase}</source>
        <translation>，发生在 {phase}</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="53"/>
        <source>{n} such messages in the text (one per failed rank); the first is read.</source>
        <translation>文本中有 {n} 条此类报错（每个出错的 rank 一条）；读取第一条。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="71"/>
        <source>Measured ({source}, {events} events): peak allocated {peak}</source>
        <translation>实测（{source}，{events} 个事件）：峰值已分配 {peak}</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="74"/>
        <source>, reserved {reserved}</source>
        <translation>，已预留 {reserved}</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/report.py" line="91"/>
        <source>GPU memory log ({source}, {samples} samples): highest {peak}</source>
        <translation>GPU 显存日志（{source}，{samples} 个采样）：最高 {peak}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="176"/>
        <source>; up to {n} tokens {engine} may or may not start (tight: within its start-up accounting&apos;s margin)</source>
        <translation>；不超过 {n} 个 token 时 {engine} 可能启动也可能拒绝（偏紧：在其启动显存核算的误差范围内）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="188"/>
        <source>; on {n} {engine} may or may not start (tight: within its start-up accounting&apos;s margin)</source>
        <translation>；用 {n} 块时 {engine} 可能启动也可能拒绝（偏紧：在其启动显存核算的误差范围内）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="205"/>
        <source>KV cache: {tokens} tokens, {per_token} KiB per token; at {length} tokens per sequence {users} sequences at once; longest single sequence {longest} tokens</source>
        <translation>KV 缓存：{tokens} 个 token，每个 token {per_token} KiB；每条序列 {length} 个 token 时可同时容纳 {users} 条序列；单条序列最长 {longest} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="219"/>
        <source>CPU memory (the token embeddings, and any layers kept off the GPU): {host}</source>
        <translation>CPU 内存（词嵌入表，以及留在 GPU 之外的层）：{host}</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="227"/>
        <source>Speed for one sequence of {context} tokens: time to first token {ttft}, {tpot} per output token, {tps} tokens/s ({bound}-bound)</source>
        <translation>1 条 {context} token 的序列时的速度：首 token 时间 {ttft}，每个输出 token {tpot}，{tps} tokens/s（受{bound}限制）</translation>
    </message>
    <message>
        <location filename="../rent_panel.py" line="315"/>
        <location filename="../../engine/estimate_output.py" line="244"/>
        <location filename="../../engine/planning/rent_report.py" line="240"/>
        <source> ({likely}, as the step time&apos;s range)</source>
        <translation>（{likely}，按步时间的范围推算）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="65"/>
        <source>1 GPU per instance x {r} replicas</source>
        <translation>每个实例 1 个 GPU × {r} 个副本</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="66"/>
        <source>{g} GPUs per instance x {r} replicas</source>
        <translation>每个实例 {g} 个 GPU × {r} 个副本</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="67"/>
        <source>one instance on 1 GPU</source>
        <translation>1 个 GPU 上的一个实例</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="68"/>
        <source>one instance on {g} GPUs</source>
        <translation>{g} 个 GPU 上的一个实例</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="71"/>
        <source>; its slow end is over the TPOT target</source>
        <translation>；其慢端超过 TPOT 目标</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="78"/>
        <source>{hour} an hour, {million} per million output tokens</source>
        <translation>每小时 {hour}，每百万输出 token {million}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="81"/>
        <source>no price set</source>
        <translation>未设价格</translation>
    </message>
    <message>
        <source>{n} x {gpu} ({shape}): {cost}; fits {per} users per instance, TPOT {tpot:.1f} ms, TTFT {ttft}, {tps:,.0f} output tokens/s</source>
        <translation type="vanished">{n} × {gpu}（{shape}）：{cost}；每个实例容纳 {per} 个用户，TPOT {tpot:.1f} 毫秒，TTFT {ttft}，每秒输出 {tps:,.0f} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="82"/>
        <source>{n} x {gpu} ({shape}): {cost}; {users}, TPOT {tpot:.1f} ms, TTFT {ttft}, {tps:,.0f} output tokens/s</source>
        <translation>{n} × {gpu}（{shape}）：{cost}；{users}，TPOT {tpot:.1f} 毫秒，TTFT {ttft}，每秒输出 {tps:,.0f} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="97"/>
        <source>holds {holds} users per instance, serves {serves} of them</source>
        <translation>每个实例可容纳 {holds} 个用户，实际服务其中 {serves} 个</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="107"/>
        <source>likely TPOT {low:.1f} to {high:.1f} ms, {tps_low:,.0f} to {tps_high:,.0f} tokens/s</source>
        <translation>可能范围：TPOT {low:.1f} 至 {high:.1f} 毫秒，每秒 {tps_low:,.0f} 至 {tps_high:,.0f} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="112"/>
        <source>, {low} to {high} per million</source>
        <translation>，每百万 {low} 至 {high}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="122"/>
        <source>TPOT at most {ms:g} ms</source>
        <translation>TPOT 不超过 {ms:g} 毫秒</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="124"/>
        <source>TTFT at most {s:g} s</source>
        <translation>TTFT 不超过 {s:g} 秒</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="126"/>
        <source>at most {cost} an hour</source>
        <translation>每小时不超过 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="129"/>
        <source>at most {cost} per million output tokens</source>
        <translation>每百万输出 token 不超过 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="132"/>
        <source>no latency target or budget</source>
        <translation>无延迟目标或预算</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="148"/>
        <source>Speeds here are taken at {prompt} prompt + {output} output tokens a request, each finished request replaced by a new one whose prefill runs between the decode steps. An applied set-up&apos;s estimate has no such split: its TPOT leaves those prefills out, so it reads lower (more so the more users), and its TTFT is of a prompt of the whole context ({context} tokens), so it reads higher.</source>
        <translation>此处的速度按每个请求 {prompt} 个提示 token + {output} 个输出 token 计算，每个完成的请求由新请求接替，其预填充在解码步之间运行。应用后的配置的估算没有这种拆分：其 TPOT 不含这些预填充，因此偏低（用户越多越明显）；其 TTFT 是整个上下文（{context} 个 token）长度的提示的，因此偏高。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="161"/>
        <source>{gpu} ({shape})</source>
        <translation>{gpu}（{shape}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="170"/>
        <source>What to rent to serve {users:,} users at once on {engine}, {prompt:,} + {output:,} tokens each ({limits}), cheapest per hour first (within {tie} of each other: fewer GPUs first):</source>
        <translation>用 {engine} 同时服务 {users:,} 个用户、每个请求 {prompt:,} + {output:,} 个 token 该租什么（{limits}），按每小时费用从低到高（相差 {tie} 以内视为相同：GPU 少的在前）：</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="190"/>
        <source>Cost is GPUs x price per GPU-hour only: no storage, network or host prices are added.</source>
        <translation>费用只算 GPU 数 × 每 GPU 小时价格：不含存储、网络或主机费用。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent_report.py" line="193"/>
        <source>Searched {gpus} GPU types ({options} instance sizes) in {seconds}.</source>
        <translation>搜索了 {gpus} 种 GPU（{options} 种实例规模），用时 {seconds}。</translation>
    </message>
    <message>
        <source>Searched {gpus} GPU types ({estimates} serving estimates) in {seconds}.</source>
        <translation type="vanished">搜索了 {gpus} 种 GPU（{estimates} 次推理估算），用时 {seconds}。</translation>
    </message>
    <message>
        <location filename="../../engine/cli_flags.py" line="23"/>
        <source>{flag} is ignored: it applies to --objective cost only.</source>
        <translation>已忽略 {flag}：它只用于 --objective cost。</translation>
    </message>
    <message>
        <location filename="../../engine/cli_flags.py" line="24"/>
        <source>{flag} is ignored: a served model runs on and has no run to finish; its cost search takes --max-tpot-ms, --max-ttft-s and budgets per hour or per million tokens.</source>
        <translation>已忽略 {flag}：推理服务持续运行，没有要完成的训练；其成本搜索使用 --max-tpot-ms、--max-ttft-s 以及每小时或每百万 token 的预算。</translation>
    </message>
    <message>
        <location filename="../../engine/cli_flags.py" line="27"/>
        <source>{flag} is ignored: it applies to the cost search of an inference scenario, and this scenario trains.</source>
        <translation>已忽略 {flag}：它只用于推理场景的成本搜索，而此场景是训练。</translation>
    </message>
    <message>
        <location filename="../../engine/cli_flags.py" line="29"/>
        <source>--budget is ignored: --budget-per-hour is given, and for a served model both are a budget per hour.</source>
        <translation>已忽略 --budget：已给出 --budget-per-hour，而对推理服务两者都是每小时预算。</translation>
    </message>
    <message>
        <location filename="../../engine/cli_flags.py" line="31"/>
        <source>--force is ignored: it replaces an --output file, and no --output is given.</source>
        <translation>已忽略 --force：它用于替换 --output 文件，而未给出 --output。</translation>
    </message>
    <message>
        <location filename="../../engine/cli_flags.py" line="32"/>
        <source>warning: {message}</source>
        <translation>警告：{message}</translation>
    </message>
</context>
<context>
    <name>engine</name>
    <message>
        <location filename="../../engine/scenario/unused_pipeline.py" line="25"/>
        <source>pp_schedule {schedule} with vpp {vpp} schedules pipeline stages: with pp 1 there is no pipeline, so it has no effect.</source>
        <translation>pp_schedule {schedule}（vpp {vpp}）用于调度流水线阶段：pp 为 1 时没有流水线，因此不起作用。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/unused_pipeline.py" line="23"/>
        <source>pp_schedule {schedule} schedules pipeline stages: with pp 1 there is no pipeline, so it has no effect.</source>
        <translation>pp_schedule {schedule} 用于调度流水线阶段：pp 为 1 时没有流水线，因此不起作用。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/pipeline_split.py" line="31"/>
        <source>{framework} splits the layers evenly over the pipeline: {layers} layers do not divide into pp {pp} x vpp {vpp} = {chunks} model chunks, so it refuses this layout without a pipeline_layout (the estimate splits them unevenly).</source>
        <translation>{framework} 在流水线上均匀切分各层：{layers} 层无法均分为 pp {pp} x vpp {vpp} = {chunks} 个模型块，因此没有 pipeline_layout 时它会拒绝此布局（估算按不均匀切分计算）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/pipeline_split.py" line="35"/>
        <source>{framework} splits the layers evenly over the pipeline: {layers} layers do not divide into pp {pp} x vpp {vpp} = {chunks} model chunks, so it refuses this layout without a pipeline_layout such as {layout} (the estimate splits them unevenly).</source>
        <translation>{framework} 在流水线上均匀切分各层：{layers} 层无法均分为 pp {pp} x vpp {vpp} = {chunks} 个模型块，因此没有 pipeline_layout（例如 {layout}）时它会拒绝此布局（估算按不均匀切分计算）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/pipeline_split.py" line="42"/>
        <source>{framework} takes a pipeline_layout of pp {pp} x vpp {vpp} = {chunks} model chunks and refuses this one&apos;s {layout_chunks} (the estimate ignores it).</source>
        <translation>{framework} 只接受 pp {pp} x vpp {vpp} = {chunks} 个模型块的 pipeline_layout，拒绝此布局的 {layout_chunks} 个块（估算忽略该布局）。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="183"/>
        <source>DeepSpeed asserts on the deprecated {old} beside {section} (it cannot start with both): {section} read</source>
        <translation>DeepSpeed 对同时给出已弃用的 {old} 与 {section} 断言失败（两者同时给出无法启动）：按 {section} 读取</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="15"/>
        <source>Reference and reward weights copied in from CPU memory</source>
        <translation>参考模型与奖励模型权重从 CPU 内存拷入</translation>
    </message>
    <message>
        <source>prefill: 2 x active params x prompt tokens at the matmul rate; decode: per token, max(weights + KV of the sequences in flight / memory bandwidth, 2 x active params x sequences / matmul rate, the host&apos;s launches of every layer without CUDA graphs), plus without CUDA graphs the engine&apos;s output processing of every running sequence, in waves of the sequences the engine holds at once</source>
        <translation type="vanished">预填充：2 × 激活参数量 × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(权重 + 在途序列的 KV) / 显存带宽，2 × 激活参数量 × 序列数 / 矩阵乘速率，无 CUDA graph 时主机逐层发射内核的时间），无 CUDA graph 时再加上引擎对每个运行中序列的输出处理，按引擎一次能容纳的序列分批进行</translation>
    </message>
    <message>
        <source>prefill: 2 x active params x prompt tokens at the matmul rate; decode: per token, max(weights + KV of the sequences in flight / memory bandwidth, 2 x active params x sequences / matmul rate, the host&apos;s launches of every layer without CUDA graphs), plus without CUDA graphs the engine&apos;s output processing of every running sequence, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：2 × 激活参数量 × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(权重 + 在途序列的 KV) / 显存带宽，2 × 激活参数量 × 序列数 / 矩阵乘速率，无 CUDA graph 时主机逐层发射内核的时间），无 CUDA graph 时再加上引擎对每个运行中序列的输出处理，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>prefill: 2 x active params x prompt tokens at the matmul rate; decode: per token, max(the longer of weights + KV of the sequences in flight / memory bandwidth and 2 x active params x sequences / matmul rate, plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time; the host&apos;s launches of every layer without CUDA graphs), plus without CUDA graphs the engine&apos;s output processing of every running sequence, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：2 × 激活参数量 × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(权重 + 在途序列的 KV) / 显存带宽与 2 × 激活参数量 × 序列数 / 矩阵乘速率中较长者，再加上 vLLM 与 SGLang 各内核的固定时间；无 CUDA graph 时主机逐层发射内核的时间），无 CUDA graph 时再加上引擎对每个运行中序列的输出处理，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>prefill: 2 x active params x prompt tokens at the matmul rate; decode: per token, max(the longer of weights + KV of the sequences in flight / memory bandwidth and 2 x active params x sequences / matmul rate, plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without CUDA graphs), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：2 × 激活参数量 × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(权重 + 在途序列的 KV) / 显存带宽与 2 × 激活参数量 × 序列数 / 矩阵乘速率中较长者，再加上 vLLM 与 SGLang 各内核的固定时间及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA graph 时主机逐层发射内核的时间），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>policy passes x the training forward of the step&apos;s micro-batches; reward and critic: 2 x active params x sequence tokens / matmul rate</source>
        <translation type="vanished">策略模型的打分次数 × 训练模型对本步各微批次的前向时间；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="16"/>
        <source>LoRA adapters&apos; FSDP units in the update (host work of each adapter&apos;s unshard and reshard)</source>
        <translation>更新阶段中 LoRA 适配器的 FSDP 单元（每个适配器 unshard 与 reshard 的主机端开销）</translation>
    </message>
    <message>
        <source>policy passes x the training forward of the step&apos;s micro-batches; reward and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters as FSDP units: + the old-policy pass&apos;s visit of each unit beyond its linear&apos;s GEMM</source>
        <translation type="vanished">策略模型的打分次数 × 训练模型对本步各微批次的前向时间；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率；LoRA 适配器各为 FSDP 单元时：再加旧策略打分中每个单元的访问超出其线性层 GEMM 的部分</translation>
    </message>
    <message>
        <source>prefill: 2 x active params x prompt tokens at the matmul rate; decode: per token, max(the longer of weights + KV of the sequences in flight / memory bandwidth and 2 x active params x sequences / matmul rate, plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time; the host&apos;s launches of every layer without CUDA graphs), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling and input preparation of each step, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：2 × 激活参数量 × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(权重 + 在途序列的 KV) / 显存带宽与 2 × 激活参数量 × 序列数 / 矩阵乘速率中较长者，再加上 vLLM 与 SGLang 各内核的固定时间；无 CUDA graph 时主机逐层发射内核的时间），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度与输入准备，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>policy passes x the training forward of the step&apos;s micro-batches (an adapter-off reference: the base&apos;s forward without the adapters); reward and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters as FSDP units: + the old-policy pass&apos;s visit of each unit beyond its linear&apos;s GEMM</source>
        <translation type="vanished">策略模型的打分次数 × 训练模型对本步各微批次的前向时间（关闭适配器的参考模型：只算基座模型的前向，不含适配器）；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率；LoRA 适配器各为 FSDP 单元时：再加旧策略打分中每个单元的访问超出其线性层 GEMM 的部分</translation>
    </message>
    <message>
        <source>policy bytes / GPU-to-GPU bandwidth when gathered or sent, else / memory bandwidth; adapters served by the engine: the policy gathered in full precision over the FSDP link + one host round trip per adapter tensor; vLLM&apos;s level-1 sleep: + 2 x the engine&apos;s weight bytes / host link bandwidth; a Megatron policy exported whole on every rank: + its stage&apos;s bytes from TP/EP peers / node link + the other stages&apos; bytes / the pipeline peers&apos; link</source>
        <translation type="vanished">需要聚合或发送时为策略模型字节数 / GPU 间带宽，否则 / 显存带宽；由推理引擎加载 LoRA 适配器时：策略模型以全精度经 FSDP 链路聚合一次 + 每个适配器张量一次主机往返；vLLM 一级休眠：再加 2 x 引擎权重字节数 / 主机链路带宽；Megatron 策略模型在每个 rank 上导出完整权重时：再加本流水线阶段从 TP/EP 对等 GPU 收到的字节数 / 节点内链路 + 其他阶段的字节数 / 流水线对等 GPU 之间的链路</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate, plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time; the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured)), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation and output update of each step, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者，再加上 vLLM 与 SGLang 各内核的固定时间；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备与输出更新，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate, plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time; the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation and output update of each step, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者，再加上 vLLM 与 SGLang 各内核的固定时间；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备与输出更新，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate, plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation and output update of each step, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者，再加上 vLLM 与 SGLang 各内核的固定时间及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备与输出更新，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate, plus the engine&apos;s tensor-parallel all-reduces of those tokens; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick; a bitsandbytes 4-bit base, with 2 or more sequences, also dequantised into a 16-bit copy that the GEMM reads) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate (an MLA model&apos;s attention: its own kernel after them, the longer of its FLOPs and its latent reads), plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time (the served adapters&apos; LoRA kernels and a bitsandbytes base&apos;s kernels too) and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation and output update of each step, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率，再加上引擎对这些 token 的张量并行 all-reduce；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些；bitsandbytes 4-bit 基座在 2 个及以上序列时还要先反量化成 16 位副本，再由 GEMM 读取）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者（MLA 模型的注意力为其后的独立内核，取其 FLOPs 与潜在缓存读取中较长者），再加上 vLLM 与 SGLang 各内核的固定时间（含所服务适配器的 LoRA 内核与 bitsandbytes 基座的内核）及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备与输出更新，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>policy passes x the training forward of the step&apos;s micro-batches (an adapter-off reference: the base&apos;s forward without the adapters); reward and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters as FSDP units: + the old-policy pass&apos;s visit of each unit beyond its linear&apos;s GEMM; packed micro-batches padded to the longest under a pipeline: the policy passes x that padding</source>
        <translation type="vanished">策略模型的打分次数 × 训练模型对本步各微批次的前向时间（关闭适配器的参考模型：只算基座模型的前向，不含适配器）；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率；LoRA 适配器各为 FSDP 单元时：再加旧策略打分中每个单元的访问超出其线性层 GEMM 的部分；流水线并行下打包的微批次补齐到最长时：策略模型的打分再乘以该补齐比例</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="21"/>
        <source>verl&apos;s passes over the logits in the update (temperature, entropy)</source>
        <translation>verl 在更新中对 logits 的额外遍历（温度缩放、熵）</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate, plus the engine&apos;s tensor-parallel all-reduces of those tokens; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick; a bitsandbytes 4-bit base, with 2 or more sequences, also dequantised into a 16-bit copy that the GEMM reads) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate (an MLA model&apos;s attention: its own kernel after them, the longer of its FLOPs and its latent reads), plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time (the served adapters&apos; LoRA kernels and a bitsandbytes base&apos;s kernels too) and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters; without an engine, transformers&apos; eager layers where the trainer&apos;s generate runs them), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation and output update of each step, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率，再加上引擎对这些 token 的张量并行 all-reduce；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些；bitsandbytes 4-bit 基座在 2 个及以上序列时还要先反量化成 16 位副本，再由 GEMM 读取）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者（MLA 模型的注意力为其后的独立内核，取其 FLOPs 与潜在缓存读取中较长者），再加上 vLLM 与 SGLang 各内核的固定时间（含所服务适配器的 LoRA 内核与 bitsandbytes 基座的内核）及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核；无引擎时，若训练器的 generate 以 eager 方式运行 transformers 的各层，则计其逐层主机时间），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备与输出更新，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>policy passes (the old policy&apos;s where the framework scores it apart, TRL&apos;s GRPO only off policy) x the training forward of the step&apos;s micro-batches (an adapter-off reference: the base&apos;s forward without the adapters); reward and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters as FSDP units: + the old-policy pass&apos;s visit of each unit beyond its linear&apos;s GEMM; packed micro-batches padded to the longest under a pipeline: the policy passes x that padding</source>
        <translation type="vanished">策略模型的打分次数（旧策略的打分仅在框架单独计算时计入，TRL 的 GRPO 仅在离策略时计算）× 训练模型对本步各微批次的前向时间（关闭适配器的参考模型：只算基座模型的前向，不含适配器）；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率；LoRA 适配器各为 FSDP 单元时：再加旧策略打分中每个单元的访问超出其线性层 GEMM 的部分；流水线并行下打包的微批次补齐到最长时：策略模型的打分再乘以该补齐比例</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate, plus the engine&apos;s tensor-parallel all-reduces of those tokens; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick; a bitsandbytes 4-bit base, with 2 or more sequences, also dequantised into a 16-bit copy that the GEMM reads) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate (an MLA model&apos;s attention: its own kernel after them, the longer of its FLOPs and its latent reads), plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time (the served adapters&apos; LoRA kernels and a bitsandbytes base&apos;s kernels too) and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters; without an engine, transformers&apos; eager layers where the trainer&apos;s generate runs them), plus vLLM V0&apos;s scheduling, input preparation and sampler (with the sampled log-prob where the framework asks for it) of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation and output update of each step (and, its engine core in the trainer&apos;s process, its output processing of each request), in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率，再加上引擎对这些 token 的张量并行 all-reduce；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些；bitsandbytes 4-bit 基座在 2 个及以上序列时还要先反量化成 16 位副本，再由 GEMM 读取）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者（MLA 模型的注意力为其后的独立内核，取其 FLOPs 与潜在缓存读取中较长者），再加上 vLLM 与 SGLang 各内核的固定时间（含所服务适配器的 LoRA 内核与 bitsandbytes 基座的内核）及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核；无引擎时，若训练器的 generate 以 eager 方式运行 transformers 的各层，则计其逐层主机时间），再加上 vLLM V0 对每个运行中序列的调度、输入准备与采样器（框架要求时含采样 token 的 log-prob），以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备与输出更新（其引擎核心在训练器进程内时，还有对每个请求的输出处理），按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>policy passes (the old policy&apos;s where the framework scores it apart, TRL&apos;s GRPO only off policy) x the training forward of the step&apos;s micro-batches (an adapter-off reference: the base&apos;s forward without the adapters); reward and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters as FSDP units: + the old-policy pass&apos;s visit of each unit beyond its linear&apos;s GEMM; packed micro-batches padded to the longest under a pipeline: the policy passes x that padding; each policy pass no faster than the host issues its eager layers; verl&apos;s passes over the logits (temperature, entropy) beyond the loss path&apos;s</source>
        <translation type="vanished">策略模型的打分次数（旧策略的打分仅在框架单独计算时计入，TRL 的 GRPO 仅在离策略时计算）× 训练模型对本步各微批次的前向时间（关闭适配器的参考模型：只算基座模型的前向，不含适配器）；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率；LoRA 适配器各为 FSDP 单元时：再加旧策略打分中每个单元的访问超出其线性层 GEMM 的部分；流水线并行下打包的微批次补齐到最长时：策略模型的打分再乘以该补齐比例；每次策略打分不快于主机逐层发射其 eager 层的时间；另加 verl 对 logits 超出损失路径部分的额外遍历（温度缩放、熵）</translation>
    </message>
    <message>
        <source>policy bytes / GPU-to-GPU bandwidth when gathered or sent, else / memory bandwidth; adapters served by the engine, instead: the policy gathered in full precision over the FSDP link + one host round trip per adapter tensor; vLLM&apos;s level-1 sleep: + 2 x the engine&apos;s weight bytes / host link bandwidth; a Megatron policy exported whole on every rank: + its stage&apos;s bytes from TP/EP peers / node link + the other stages&apos; bytes / the pipeline peers&apos; link</source>
        <translation type="vanished">需要聚合或发送时为策略模型字节数 / GPU 间带宽，否则 / 显存带宽；由推理引擎加载 LoRA 适配器时则改为：策略模型以全精度经 FSDP 链路聚合一次 + 每个适配器张量一次主机往返；vLLM 一级休眠：再加 2 x 引擎权重字节数 / 主机链路带宽；Megatron 策略模型在每个 rank 上导出完整权重时：再加本流水线阶段从 TP/EP 对等 GPU 收到的字节数 / 节点内链路 + 其他阶段的字节数 / 流水线对等 GPU 之间的链路</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="80"/>
        <source>forwards x the frozen model&apos;s parameter bytes / (tp x FSDP shards) / host link bandwidth</source>
        <translation>前向次数 x 冻结模型参数字节数 / (tp x FSDP 分片数) / 主机链路带宽</translation>
    </message>
    <message>
        <source>micro-batches x (forward + recompute + backward visits) x layers x adapted linears x max(0, 2 units x FSDP1&apos;s calls per visit at the host&apos;s per-call costs - the linear&apos;s base GEMM)</source>
        <translation type="vanished">微批次数 x（前向 + 重计算 + 反向的访问次数）x 层数 x 加适配器的线性层数 x max(0, 2 个单元 x 每次访问的 FSDP1 调用数按主机单次调用开销计 - 该线性层基础 GEMM 的时间)</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate, plus the engine&apos;s tensor-parallel all-reduces of those tokens; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick; a bitsandbytes 4-bit base, with 2 or more sequences, also dequantised into a 16-bit copy that the GEMM reads) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate (an MLA model&apos;s attention: its own kernel after them, the longer of its FLOPs and its latent reads), plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time (the served adapters&apos; LoRA kernels and a bitsandbytes base&apos;s kernels too) and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters; without an engine, transformers&apos; eager layers where the trainer&apos;s generate runs them), plus vLLM V0&apos;s scheduling, input preparation and sampler (with the sampled log-prob where the framework asks for it) of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation, sampling and output update of each step (and, its engine core in the trainer&apos;s process, its output processing of each request), at the sequences the engine holds at once, a waiting one taking the place of one that ends (sequences / that many passes of completion_len iterations), per generate() call (one per micro-batch where the framework generates so); then, each call&apos;s batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率，再加上引擎对这些 token 的张量并行 all-reduce；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些；bitsandbytes 4-bit 基座在 2 个及以上序列时还要先反量化成 16 位副本，再由 GEMM 读取）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者（MLA 模型的注意力为其后的独立内核，取其 FLOPs 与潜在缓存读取中较长者），再加上 vLLM 与 SGLang 各内核的固定时间（含所服务适配器的 LoRA 内核与 bitsandbytes 基座的内核）及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核；无引擎时，若训练器的 generate 以 eager 方式运行 transformers 的各层，则计其逐层主机时间），再加上 vLLM V0 对每个运行中序列的调度、输入准备与采样器（框架要求时含采样 token 的 log-prob），以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备、采样与输出更新（其引擎核心在训练器进程内时，还有对每个请求的输出处理），在每次 generate() 调用内以引擎一次能容纳的序列数运行，一个序列结束即由等待中的序列补上（序列数 / 该容量 遍 completion_len 次迭代；框架按微批次生成时，每个微批次调用一次）；之后每次调用的这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate, plus the engine&apos;s tensor-parallel all-reduces of those tokens; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick, at the triton fused_moe&apos;s tile share of the bandwidth in vLLM and SGLang; a bitsandbytes 4-bit base, with 2 or more sequences, also dequantised into a 16-bit copy that the GEMM reads) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate (an MLA model&apos;s attention: its own kernel after them, the longer of its FLOPs and its latent reads), plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time (the served adapters&apos; LoRA kernels and a bitsandbytes base&apos;s kernels too) and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters; without an engine, transformers&apos; eager layers where the trainer&apos;s generate runs them), plus vLLM V0&apos;s scheduling, input preparation and sampler (with the sampled log-prob where the framework asks for it) of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation, sampling and output update of each step (and, its engine core in the trainer&apos;s process, its output processing of each request), at the sequences the engine holds at once, a waiting one taking the place of one that ends (sequences / that many passes of completion_len iterations), per generate() call (one per micro-batch where the framework generates so); then, each call&apos;s batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率，再加上引擎对这些 token 的张量并行 all-reduce；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些，在 vLLM 与 SGLang 中按 triton fused_moe 分块所能达到的带宽份额读取；bitsandbytes 4-bit 基座在 2 个及以上序列时还要先反量化成 16 位副本，再由 GEMM 读取）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者（MLA 模型的注意力为其后的独立内核，取其 FLOPs 与潜在缓存读取中较长者），再加上 vLLM 与 SGLang 各内核的固定时间（含所服务适配器的 LoRA 内核与 bitsandbytes 基座的内核）及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA graph（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核；无引擎时，若训练器的 generate 以 eager 方式运行 transformers 的各层，则计其逐层主机时间），再加上 vLLM V0 对每个运行中序列的调度、输入准备与采样器（框架要求时含采样 token 的 log-prob），以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备、采样与输出更新（其引擎核心在训练器进程内时，还有对每个请求的输出处理），在每次 generate() 调用内以引擎一次能容纳的序列数运行，一个序列结束即由等待中的序列补上（序列数 / 该容量 遍 completion_len 次迭代；框架按微批次生成时，每个微批次调用一次）；之后每次调用的这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="25"/>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate, plus the engine&apos;s tensor-parallel all-reduces of those tokens; decode: per token, max(the longer of the weights read (not an untied embedding table nor a vision tower; of a MoE&apos;s experts, those its tokens pick, at the triton fused_moe&apos;s tile share of the bandwidth in vLLM and SGLang; a bitsandbytes 4-bit base, with 2 or more sequences, also dequantised into a 16-bit copy that the GEMM reads) + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate (an MLA model&apos;s attention: its own kernel after them, the longer of its FLOPs and its latent reads), plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time (the served adapters&apos; LoRA kernels and a bitsandbytes base&apos;s kernels too) and the engine&apos;s tensor-parallel all-reduces (2 a layer of tokens x hidden x 2 bytes, NCCL&apos;s beyond a node); the host&apos;s launches of every layer without a CUDA graph (eager, or a batch beyond the largest captured), with vLLM&apos;s LoRA kernels of each adapted linear when it serves the adapters; without an engine, the trainer&apos;s generate(): its loop, transformers&apos; eager layers (Qwen3.5&apos;s DeltaNet on their torch fallback: flash-linear-attention assumed absent), PEFT&apos;s adapters and bitsandbytes&apos; 4-bit linears where it runs them), plus vLLM V0&apos;s scheduling, input preparation and sampler (with the sampled log-prob where the framework asks for it) of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling, input preparation, sampling and output update of each step (and, its engine core in the trainer&apos;s process, its output processing of each request), at the sequences the engine holds at once, a waiting one taking the place of one that ends (sequences / that many passes of completion_len iterations), per generate() call (one per micro-batch where the framework generates so); then, each call&apos;s batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len (a MoE&apos;s last pass, and a dense model&apos;s decoded from CUDA graphs: its sequences ending along the completions&apos; spread, the maximum-entropy one of that mean and longest, assumed); the slowest of several engines: its extra tokens (its sequences independent draws of that spread); then the generation worker&apos;s Python building its batch from the outputs and the driver&apos;s decode of every response, per request and generated token (NeMo-RL&apos;s synchronous worker)</source>
        <translation>预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率，再加上引擎对这些 token 的张量并行 all-reduce；解码：每个 token 取 max（(读取的权重（不含非共享的词嵌入表与视觉塔；MoE 的专家只计其 token 选中的那些，在 vLLM 与 SGLang 中按 triton fused_moe 分块所能达到的带宽份额读取；bitsandbytes 4-bit 基座在 2 个及以上序列时还要先反量化成 16 位副本，再由 GEMM 读取）+ 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者（MLA 模型的注意力为其后的独立内核，取其 FLOPs 与潜在缓存读取中较长者），再加上 vLLM 与 SGLang 各内核的固定时间（含所服务适配器的 LoRA 内核与 bitsandbytes 基座的内核）及引擎的张量并行 all-reduce（每层 2 次，每次 token 数 × hidden × 2 字节，跨节点时为 NCCL 的）；无 CUDA 图（eager，或批次超过已捕获的最大批次）时主机逐层发射内核的时间，引擎服务 LoRA 适配器时含 vLLM 对每个适配线性层的 LoRA 内核；无引擎时，训练器自身的 generate()：计其生成循环本身，以及其所运行的 eager transformers 各层（Qwen3.5 的 DeltaNet 层走其 torch 回退实现：假定未安装 flash-linear-attention）、PEFT 适配器与 bitsandbytes 4-bit 线性层的主机时间），再加上 vLLM V0 对每个运行中序列的调度、输入准备与采样器（框架要求时含采样 token 的 log-prob），以及无 CUDA 图时对每个序列的输出处理，或 vLLM V1 每步的调度、输入准备、采样与输出更新（其引擎核心在训练器进程内时，还有对每个请求的输出处理），在每次 generate() 调用内以引擎一次能容纳的序列数运行，一个序列结束即由等待中的序列补上（序列数 / 该容量 遍 completion_len 次迭代；框架按微批次生成时，每个微批次调用一次）；之后每次调用的这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len（MoE 的最后一轮，以及由 CUDA 图解码的稠密模型的最后一轮：其序列按补全长度的分布逐个结束，取给定均值与最长值下的最大熵分布，为假定）；分给多个引擎时，最慢引擎多出的 token（其各序列按该分布独立抽取）；之后生成 worker 用 Python 由输出构建其批次、driver 解码每条回复，逐请求、逐生成 token 计（NeMo-RL 的同步 worker）</translation>
    </message>
    <message>
        <source>policy passes (the old policy&apos;s where the framework scores it apart, TRL&apos;s GRPO only off policy) x the training forward of the step&apos;s micro-batches (an adapter-off reference: the base&apos;s forward without the adapters); reward and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters as FSDP units: + the old-policy pass&apos;s visit of each unit beyond its linear&apos;s GEMM; packed micro-batches padded to the longest under a pipeline: the policy passes x that padding; each policy pass no faster than the host issues its eager layers; verl&apos;s passes over the logits (temperature, entropy) beyond the loss path&apos;s; FSDP1 over ranks: each policy pass&apos;s weight gathers beyond what its forward hides (every layer each micro-batch, the root once); a single controller: the batch sent to the workers and the per-token results back, each scoring call</source>
        <translation type="vanished">策略模型的打分次数（旧策略的打分仅在框架单独计算时计入，TRL 的 GRPO 仅在离策略时计算）× 训练模型对本步各微批次的前向时间（关闭适配器的参考模型：只算基座模型的前向，不含适配器）；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率；LoRA 适配器各为 FSDP 单元时：再加旧策略打分中每个单元的访问超出其线性层 GEMM 的部分；流水线并行下打包的微批次补齐到最长时：策略模型的打分再乘以该补齐比例；每次策略打分不快于主机逐层发射其 eager 层的时间；另加 verl 对 logits 超出损失路径部分的额外遍历（温度缩放、熵）；FSDP1 跨多卡分片时：每次策略打分中其前向未能掩盖的权重 all-gather（每个微批次每层一次，根单元每次打分一次）；单控制器时：每次打分调用把批次发送给各 worker、再取回逐 token 结果的往返</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="22"/>
        <source>Update micro-batches waiting for the rank with the most tokens</source>
        <translation>更新阶段的微批次等待 token 最多的 rank</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="57"/>
        <source>policy passes (the old policy&apos;s where the framework scores it apart, TRL&apos;s GRPO only off policy) x the training forward of the step&apos;s micro-batches (an adapter-off reference: the base&apos;s forward without the adapters); reward and critic: 2 x active params x sequence tokens / matmul rate; LoRA adapters as FSDP units: + the old-policy pass&apos;s visit of each unit beyond its linear&apos;s GEMM; packed micro-batches padded to the longest under a pipeline: the policy passes x that padding; each policy pass no faster than the host issues its eager layers; verl&apos;s passes over the logits (temperature, entropy) beyond the loss path&apos;s; FSDP1 over ranks: each policy pass&apos;s weight gathers beyond what its forward hides (every layer each micro-batch, the root once); a single controller: the batch sent to the workers and the per-token results back, each scoring call; padding-free micro-batches of a fixed count of sequences under FSDP: at the longest rank&apos;s tokens</source>
        <translation>策略模型的打分次数（旧策略的打分仅在框架单独计算时计入，TRL 的 GRPO 仅在离策略时计算）× 训练模型对本步各微批次的前向时间（关闭适配器的参考模型：只算基座模型的前向，不含适配器）；奖励模型与评论家模型：2 × 激活参数量 × 序列 token 数 / 矩阵乘速率；LoRA 适配器各为 FSDP 单元时：再加旧策略打分中每个单元的访问超出其线性层 GEMM 的部分；流水线并行下打包的微批次补齐到最长时：策略模型的打分再乘以该补齐比例；每次策略打分不快于主机逐层发射其 eager 层的时间；另加 verl 对 logits 超出损失路径部分的额外遍历（温度缩放、熵）；FSDP1 跨多卡分片时：每次策略打分中其前向未能掩盖的权重 all-gather（每个微批次每层一次，根单元每次打分一次）；单控制器时：每次打分调用把批次发送给各 worker、再取回逐 token 结果的往返；FSDP 下按固定序列数切分的无填充微批次：按 token 最多的 rank 计</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="70"/>
        <source>policy bytes / GPU-to-GPU bandwidth when gathered or sent, else / memory bandwidth; adapters served by the engine, instead: the policy gathered in full precision over the FSDP link + one host round trip per adapter tensor; vLLM&apos;s level-1 sleep: + 2 x the engine&apos;s weight bytes / host link bandwidth; a Megatron policy exported whole on every rank: + its stage&apos;s bytes from TP/EP peers / node link + the other stages&apos; bytes / the pipeline peers&apos; link; adapters loaded anew at every generate() call: per call one host round trip per adapter tensor + 2 x the adapters&apos; bytes / host link bandwidth</source>
        <translation>需要聚合或发送时为策略模型字节数 / GPU 间带宽，否则 / 显存带宽；由推理引擎加载 LoRA 适配器时则改为：策略模型以全精度经 FSDP 链路聚合一次 + 每个适配器张量一次主机往返；vLLM 一级休眠：再加 2 x 引擎权重字节数 / 主机链路带宽；Megatron 策略模型在每个 rank 上导出完整权重时：再加本流水线阶段从 TP/EP 对等 GPU 收到的字节数 / 节点内链路 + 其他阶段的字节数 / 流水线对等 GPU 之间的链路；每次 generate() 调用都重新加载适配器时：每次调用每个适配器张量一次主机往返 + 2 x 适配器字节数 / 主机链路带宽</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="88"/>
        <source>(the bin capacity / the tokens of the whole mean-length sequences a bin holds - 1) x the training step; the scoring passes likewise</source>
        <translation>（打包容量 / 一个打包所容纳的完整平均长度序列的 token 总数 - 1）x 训练步；打分前向同样如此</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="91"/>
        <source>tokens x vocabulary x (the bytes per logit of verl&apos;s division by the temperature, compiled entropy and out-of-place cross-entropy gradient, forward and backward, less the loss path&apos;s) / memory bandwidth; each scoring pass likewise, forward only, in the scoring</source>
        <translation>token 数 × 词表大小 ×（verl 按温度缩放、编译后的熵计算与非原地交叉熵梯度在前向和反向中每个 logit 读写的字节数，减去损失路径已计入的部分）/ 显存带宽；每次打分前向同样计算（只算前向），计入打分阶段</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="133"/>
        <source>verl&apos;s micro-batches (a fixed count of sequences, or a token budget within each mini-batch) and FSDP&apos;s gathers, read from their source; the length spread is the run&apos;s log&apos;s where the scenario states it (sequence_len_std), else assumed (the maximum-entropy one of the stated mean and longest).</source>
        <translation>verl 的微批次切分（按固定序列数，或在每个小批次内按 token 预算）以及 FSDP 的 all-gather，均读自其源码；长度分布在场景给出时取运行日志中的值（sequence_len_std），否则为假设（给定均值与最长值下的最大熵分布）。</translation>
    </message>
    <message>
        <source>(e_n x sigma x sqrt(1 - 1/k) / (tokens a sequence x sqrt(sequences a micro-batch))) x the update&apos;s matmuls, memory-bound passes and recompute (n ranks, k micro-batches a rank, sigma: the completions&apos; spread, the maximum-entropy one of the mean and longest, assumed); each scoring pass&apos;s forward likewise, in the scoring</source>
        <translation type="vanished">（e_n x sigma x sqrt(1 - 1/k) /（每条序列的 token 数 x sqrt(每个微批次的序列数)））x 更新阶段的矩阵乘、访存受限计算与重计算（n 为 rank 数，k 为每个 rank 的微批次数，sigma 为补全长度的离散程度：取给定均值与最长值下的最大熵分布，为假设）；每次打分前向同样计算，计入打分阶段</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="110"/>
        <source>The training model&apos;s forward of the step&apos;s micro-batches for the policy&apos;s passes; forward FLOPs for the other models.</source>
        <translation>策略模型的打分按训练时间模型对本步各微批次的前向计时；其他模型按前向 FLOPs 计算。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="117"/>
        <source>FSDP&apos;s parameter CPU offload copies each unit&apos;s shard to the GPU for every forward of the frozen model.</source>
        <translation>FSDP 的参数 CPU 卸载在冻结模型的每次前向中把每个单元的分片拷到 GPU。</translation>
    </message>
    <message>
        <source>verl&apos;s fixed-count micro-batches and FSDP&apos;s gathers, read from their source; the completions&apos; length spread is assumed (the maximum-entropy one of the stated mean and longest).</source>
        <translation type="vanished">verl 按固定序列数切分微批次以及 FSDP 的 all-gather，均读自其源码；补全长度的分布为假设（给定均值与最长值下的最大熵分布）。</translation>
    </message>
    <message>
        <source>FSDP1&apos;s calls per unshard and reshard, counted from its source, at the measured per-call host costs; a lower bound (FSDP&apos;s own Python is not counted).</source>
        <translation type="vanished">FSDP1 每次 unshard 与 reshard 的调用数（按其源码计数），乘以实测的主机单次调用开销；为下界（未计 FSDP 自身的 Python 开销）。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="130"/>
        <source>The passes verl&apos;s actor runs over the padding-free logits, counted from its source, at the memory bandwidth.</source>
        <translation>verl 的 actor 对去填充 logits 的各次遍历，按其源码计数，以显存带宽计时。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan_float8.py" line="100"/>
        <source>float8 recipe {recipe} is not one of torchtitan&apos;s (tensorwise, rowwise, rowwise_with_gw_hp)</source>
        <translation>float8 配方 {recipe} 不是 torchtitan 的配方之一（tensorwise、rowwise、rowwise_with_gw_hp）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan_float8.py" line="67"/>
        <source>torchtitan&apos;s MXFP8 (torchao&apos;s MX converter) runs on CUDA SM100 (Blackwell) or ROCm gfx950 (MI350 / MI355X) and later only, not on {gpu}; pick another fp8 recipe or GPU.</source>
        <translation>torchtitan 的 MXFP8（torchao 的 MX 转换器）只能在 CUDA SM100（Blackwell）或 ROCm gfx950（MI350 / MI355X）及更新的 GPU 上运行，不能在 {gpu} 上运行；请选择其他 fp8 配方或 GPU。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan_float8.py" line="71"/>
        <source>torchtitan&apos;s MXFP8 does not run tensor parallelism with torch.compile; turn one of them off.</source>
        <translation>torchtitan 的 MXFP8 不支持张量并行与 torch.compile 同时使用；请关闭其中之一。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan_float8.py" line="115"/>
        <source>MX recipe {recipe} is not MXFP8, the one the estimate models</source>
        <translation>MX 配方 {recipe} 不是 MXFP8（估算所建模的配方）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan_float8.py" line="48"/>
        <source>torchtitan&apos;s float8 (torchao) has the recipes tensorwise, rowwise and rowwise_with_gw_hp, and mxfp8 through its MX converter, not {recipe}; pick one of them or auto.</source>
        <translation>torchtitan 的 float8（torchao）只有 tensorwise、rowwise 和 rowwise_with_gw_hp 这几种配方，以及通过其 MX 转换器使用的 mxfp8，没有 {recipe}；请选择其中之一或 auto。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_native.py" line="276"/>
        <source>Megatron-LM&apos;s flags cannot build {name}: its GeGLU MLP (tanh GELU; Megatron-LM has --swiglu and --quick-geglu only) and its embeddings scaled by the square root of the hidden size have no pretrain_gpt flag; take its model flags from its Megatron-Bridge recipe and add the parallel settings.</source>
        <translation>Megatron-LM 的参数无法构建 {name}：它的 GeGLU MLP（tanh GELU；Megatron-LM 只有 --swiglu 和 --quick-geglu）以及按隐藏维度平方根缩放的嵌入都没有对应的 pretrain_gpt 参数；请从它的 Megatron-Bridge 配方中取模型参数，再加上并行设置。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/custom_parts.py" line="89"/>
        <source>{field!r} is not a field of a custom GPU; it takes {p}.</source>
        <translation>{field!r} 不是自定义 GPU 的字段；可用字段为 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimators.py" line="29"/>
        <source>the last context-parallel rank of each group</source>
        <translation>每组中最后一个上下文并行 rank</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="262"/>
        <location filename="../../engine/memory/breakdown.py" line="53"/>
        <location filename="../../engine/memory/breakdown.py" line="55"/>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="223"/>
        <source>config.json ({model_type}) has no &apos;{key}&apos;, which the estimate needs.</source>
        <translation>config.json（{model_type}）中缺少估算所需的 &apos;{key}&apos;。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="234"/>
        <source>config.json &apos;{key}&apos; must be a positive whole number, not {value!r}.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须是正整数，而不是 {value!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/hf_config.py" line="70"/>
        <source>config.json ({model_type}) has mixture-of-experts layers with {n} experts and {k} per token; each must be at least 1.</source>
        <translation>config.json（{model_type}）中有混合专家（MoE）层，专家数为 {n}，每个 token 路由到 {k} 个；两者都必须至少为 1。</translation>
    </message>
    <message>
        <location filename="../../engine/models/hf_config.py" line="139"/>
        <source>A config.json must hold one JSON object.</source>
        <translation>config.json 必须包含一个 JSON 对象。</translation>
    </message>
    <message>
        <location filename="../../engine/models/hf_config.py" line="152"/>
        <source>config.json has no &apos;model_type&apos;, so the architecture is unknown.</source>
        <translation>config.json 中没有 &apos;model_type&apos;，因此无法确定模型架构。</translation>
    </message>
    <message>
        <location filename="../../engine/models/hf_config.py" line="128"/>
        <source>Model type &apos;{model_type}&apos; is not supported: {why}. Supported: {p}.</source>
        <translation>不支持模型类型 &apos;{model_type}&apos;：{why}。支持的类型：{p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="183"/>
        <source>num_attention_heads ({heads}) is not a multiple of num_key_value_heads ({kv_heads}).</source>
        <translation>num_attention_heads（{heads}）不是 num_key_value_heads（{kv_heads}）的整数倍。</translation>
    </message>
    <message>
        <location filename="../../engine/models/hf_config.py" line="162"/>
        <source>A mixture-of-experts config needs &apos;num_experts_per_tok&apos;.</source>
        <translation>混合专家（MoE）配置需要 &apos;num_experts_per_tok&apos;。</translation>
    </message>
    <message>
        <location filename="../../engine/models/config_file.py" line="24"/>
        <source>{name} is larger than 4 MB; a config.json is a few kilobytes. Is it a weights file?</source>
        <translation>{name} 大于 4 MB，而 config.json 通常只有几 KB。它是不是权重文件？</translation>
    </message>
    <message>
        <location filename="../../engine/models/config_file.py" line="38"/>
        <source>{name} is not a JSON config file ({exc}).</source>
        <translation>{name} 不是 JSON 配置文件（{exc}）。</translation>
    </message>
    <message>
        <location filename="../../engine/models/config_file.py" line="42"/>
        <source>{name} does not look like a Hugging Face config.json (no &apos;model_type&apos;).</source>
        <translation>{name} 看起来不像 Hugging Face config.json（没有 &apos;model_type&apos;）。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="53"/>
        <source>tight</source>
        <translation>偏紧</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="54"/>
        <location filename="../../engine/memory/breakdown.py" line="55"/>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="56"/>
        <source>not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="91"/>
        <source>whole step</source>
        <translation>整个步骤</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="93"/>
        <location filename="../../engine/memory/breakdown.py" line="95"/>
        <source>forward + backward</source>
        <translation>前向 + 反向</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="97"/>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="99"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="101"/>
        <location filename="../../engine/memory/breakdown.py" line="159"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="103"/>
        <source>backward + optimizer</source>
        <translation>反向 + 优化器</translation>
    </message>
    <message>
        <location filename="../../engine/memory/breakdown.py" line="104"/>
        <source>varies</source>
        <translation>不固定</translation>
    </message>
    <message>
        <location filename="../../engine/memory/verdict_words.py" line="31"/>
        <source>over by {over} per GPU, and the CPU memory does not hold it either: needs {need} per node, {capacity} available</source>
        <translation>每块 GPU 超出 {over}，CPU 内存也放不下：每节点需要 {need}，可用 {capacity}</translation>
    </message>
    <message>
        <location filename="../../engine/memory/verdict_words.py" line="36"/>
        <source>the CPU memory does not hold it: needs {need} per node, {capacity} available</source>
        <translation>CPU 内存放不下：每节点需要 {need}，可用 {capacity}</translation>
    </message>
    <message>
        <location filename="../../engine/memory/verdict_words.py" line="40"/>
        <source>{free} free per GPU</source>
        <translation>每块 GPU 剩余 {free}</translation>
    </message>
    <message>
        <location filename="../../engine/memory/verdict_words.py" line="43"/>
        <source>fits with {spare} to spare, but only by using {eaten} of the {reserve} safety reserve</source>
        <translation>放得下，还剩 {spare}，但占用了 {reserve} 安全余量中的 {eaten}</translation>
    </message>
    <message>
        <location filename="../../engine/memory/verdict_words.py" line="47"/>
        <source>over by {over} per GPU, safety reserve included</source>
        <translation>每块 GPU 超出 {over}（含安全余量）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/verdict_words.py" line="63"/>
        <source>at {length} tokens each the KV cache holds {held} of the {asked} users the engine is set to decode at once (max_num_seqs); the others wait.</source>
        <translation>每个用户 {length} 个 token 时，KV 缓存只能同时容纳引擎设定同时解码的 {asked} 个用户中的 {held} 个（max_num_seqs）；其余用户需等待。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/decoder_activations.py" line="110"/>
        <source>Activations (decoder layers)</source>
        <translation>激活值（解码器层）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="238"/>
        <source>Final norm and lm_head inputs</source>
        <translation>最终归一化层和 lm_head 的输入</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="241"/>
        <source>final RMSNorm and lm_head saved inputs</source>
        <translation>最终 RMSNorm 和 lm_head 保存的输入</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="245"/>
        <source>Logits and cross-entropy</source>
        <translation>Logits 与交叉熵</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="276"/>
        <source>Backward scratch (one layer&apos;s gradients)</source>
        <translation>反向临时缓冲（单层梯度）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="279"/>
        <source>largest set of intermediate gradients alive in one layer&apos;s backward</source>
        <translation>单层反向中同时存在的最大一组中间梯度</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="285"/>
        <source>Recomputed layer (checkpointing)</source>
        <translation>重算层（激活检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="290"/>
        <source>one layer&apos;s activations rebuilt during backward</source>
        <translation>反向时重建的一层激活值</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="308"/>
        <source>one 16-bit copy of the largest 4-bit weight matrix: each layer&apos;s 4-bit weights are unpacked into it before their matmul, and it stays allocated all step (compute bytes per weight + fp32 absmax per 64)</source>
        <translation>最大的 4-bit 权重矩阵的一份 16 位副本：每层的 4-bit 权重在矩阵乘之前解包到其中，它整步都保持分配（每个权重按计算精度字节数 + 每 64 个值一个 fp32 absmax）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="288"/>
        <source>the activations of one uniform group of recompute_num_layers layers, rebuilt at once during backward</source>
        <translation>一个 uniform 组（recompute_num_layers 层）的激活值，在反向时一次性重建</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="305"/>
        <source>Dequantisation buffer (4-bit weights)</source>
        <translation>反量化缓冲区（4-bit 权重）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="374"/>
        <source>Vision tower forward (frozen)</source>
        <translation>视觉塔前向（冻结）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="377"/>
        <source>one tower block&apos;s input and largest working set (norm output, q/k/v, attention or MLP intermediates) over the micro-batch&apos;s patches, on the weights and states alive when the forward starts; counted by what it adds above the end of the forward</source>
        <translation>视觉塔单个块的输入及其最大工作集（归一化输出、q/k/v、注意力或 MLP 中间结果），覆盖该微批次的全部图像块，叠加在前向开始时已存在的权重和状态之上；只计入它超出前向结束时刻的部分</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="394"/>
        <source>Embedding dropout mask</source>
        <translation>嵌入层 dropout 掩码</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="397"/>
        <source>b·s·h x 1 byte, kept until the embedding&apos;s backward</source>
        <translation>b·s·h × 1 字节，保留到嵌入层的反向传播</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="111"/>
        <source>Autocast bf16 weight cache</source>
        <translation>Autocast bf16 权重缓存</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="114"/>
        <source>2 bytes x trainable linear weights, cached by autocast during the forward pass</source>
        <translation>2 字节 x 可训练线性层权重，前向时由 autocast 缓存</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="338"/>
        <source>Activations (vision tower)</source>
        <translation>激活值（视觉塔）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="341"/>
        <source>tower blocks x tensors kept per patch (per operation, traced for SigLIP and Qwen2.5-VL) + merger/projector inputs; checkpointed: one input per block</source>
        <translation>编码器块数 × 每个图像块保留的张量（逐操作建模，已对 SigLIP 和 Qwen2.5-VL 追踪验证）+ 合并层/投影层输入；启用检查点时：每块保留一个输入</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="402"/>
        <source>Input ids, labels and rotary tables</source>
        <translation>输入 ids、标签和旋转位置编码表</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="405"/>
        <source>b·s x 16 (int64 ids and labels) + cos/sin tables</source>
        <translation>b·s x 16（int64 ids 和标签）+ cos/sin 表</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="187"/>
        <source>ZeRO-3/FSDP all-gather buffers</source>
        <translation>ZeRO-3/FSDP all-gather 缓冲区</translation>
    </message>
    <message>
        <source>2 gathered units (current + prefetch) + one unsharded gradient unit</source>
        <translation type="vanished">2 个已收集单元（当前 + 预取）+ 1 个未分片的梯度单元</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="190"/>
        <source>2 gathered units (current + prefetch) + one unsharded gradient unit; DeepSpeed: the module in use + its prefetch bucket, within stage3_max_live_parameters</source>
        <translation>2 个已收集单元（当前 + 预取）+ 1 个未分片的梯度单元；DeepSpeed：正在使用的模块 + 其预取桶，不超过 stage3_max_live_parameters</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="132"/>
        <source>ZeRO reduce/all-gather buckets</source>
        <translation>ZeRO reduce/all-gather 桶</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="135"/>
        <source>min(bucket size, params) elements x bytes (DeepSpeed: 5e8 by default)</source>
        <translation>min(桶大小, 参数量) 个元素 × 字节数（DeepSpeed 默认 5e8）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="227"/>
        <source>Optimizer step temporaries</source>
        <translation>优化器步骤临时张量</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="230"/>
        <source>foreach AdamW: one state-sized temporary (sqrt of v); mixed precision: fp32 grad copy</source>
        <translation>foreach AdamW：一个与状态同样大小的临时张量（v 的平方根）；混合精度：fp32 梯度副本</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="238"/>
        <source>PyTorch 2.0&apos;s foreach AdamW: two state-sized temporaries (sqrt of v, then + eps out of place); mixed precision: fp32 grad copy</source>
        <translation>PyTorch 2.0 的 foreach AdamW：两个与状态同样大小的临时张量（v 的平方根，以及非原地加上 eps 的结果）；混合精度：fp32 梯度副本</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="51"/>
        <source>CUDA context and library workspaces</source>
        <translation>CUDA 上下文和库工作区</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="102"/>
        <source>Allocator rounding and fragmentation</source>
        <translation>分配器取整与碎片</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="52"/>
        <source>0.75 GiB per process (+0.25 GiB NCCL buffers when world size &gt; 1)</source>
        <translation>每个进程 0.75 GiB（world size &gt; 1 时另加 0.25 GiB NCCL 缓冲区）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="105"/>
        <source>caching allocator: cached remainders of the largest transient tensors, the loss&apos;s b·s·V spike (64% of it, 22% with expandable segments)</source>
        <translation>缓存分配器：最大的临时张量（损失计算的 b·s·V 峰值）被缓存后剩下的部分（其 64%，可扩展段时 22%）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="112"/>
        <source>Safety reserve</source>
        <translation>安全余量</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="115"/>
        <source>reserve fraction x peak allocated</source>
        <translation>余量比例 x 已分配峰值</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="152"/>
        <source>Megatron&apos;s hybrid optimizer steps {share} of the optimizer states on the CPU: every step waits for that CPU AdamW (one thread per rank) and its copies; Megatron-Bridge measured +88% step time at 25% and +321% at 100% on Qwen3-30B-A3B.</source>
        <translation>Megatron 的混合优化器在 CPU 上更新 {share} 的优化器状态：每一步都要等待这部分 CPU AdamW（每个 rank 一个线程）及其拷贝；Megatron-Bridge 在 Qwen3-30B-A3B 上实测：25% 时步时 +88%，100% 时 +321%。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="157"/>
        <source>Offloading to CPU memory trades GPU memory for speed: steps are typically several times (up to 10x) slower, bound by PCIe bandwidth.</source>
        <translation>卸载到 CPU 内存是用速度换显存：受 PCIe 带宽限制，每步通常会慢好几倍（最多 10 倍）。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="161"/>
        <source>seq_len {seq_len} is longer than the model&apos;s context ({context}).</source>
        <translation>seq_len {seq_len} 超过了模型的上下文长度（{context}）。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="165"/>
        <source>FlashAttention needs fp16/bf16 inputs; fp32 falls back to SDPA&apos;s memory-efficient kernel.</source>
        <translation>FlashAttention 需要 fp16/bf16 输入；fp32 会退回到 SDPA 的省显存（memory-efficient）内核。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="168"/>
        <source>{model} soft-caps its attention scores, which PyTorch SDPA cannot do: transformers runs it with eager attention (b·a·s² scores kept), as estimated here. FlashAttention 2 supports soft-capping.</source>
        <translation>{model} 会对注意力分数做软截断（soft-capping），PyTorch SDPA 不支持：transformers 会改用 eager 注意力（保存 b·a·s² 的分数），这里按此估算。FlashAttention 2 支持软截断。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="173"/>
        <source>With {precision} the frozen base weights are kept in fp32 (4 bytes each). Most LoRA recipes load the model in bf16: choose precision &apos;bf16&apos; for that.</source>
        <translation>使用 {precision} 时，冻结的基础权重以 fp32 保存（每个 4 字节）。大多数 LoRA 方案以 bf16 加载模型：如需如此，请选择精度 &apos;bf16&apos;。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="181"/>
        <source>{framework} casts the quantised model&apos;s LoRA adapters to bf16, and fp16 mixed precision&apos;s gradient scaler cannot unscale bf16 gradients (NotImplementedError: &quot;_amp_foreach_non_finite_check_and_unscale_cuda&quot; not implemented for &apos;BFloat16&apos;): the run stops at its first step. Train in bf16, or in fp16 without mixed precision (precision fp16), or with a TRL release from before this trainer&apos;s cast (framework trl-2025).</source>
        <translation>{framework} 会把量化模型的 LoRA 适配器转换为 bf16，而 fp16 混合精度的梯度缩放器无法对 bf16 梯度做反缩放（NotImplementedError: &quot;_amp_foreach_non_finite_check_and_unscale_cuda&quot; not implemented for &apos;BFloat16&apos;）：训练会在第一步停止。请改用 bf16 训练，或不开混合精度的 fp16（precision fp16），或使用该训练器开始转换之前的 TRL 版本（framework trl-2025）。</translation>
    </message>
    <message>
        <source>{framework} casts the quantised model&apos;s LoRA adapters to bf16, and fp16 mixed precision&apos;s gradient scaler cannot unscale bf16 gradients (NotImplementedError: &quot;_amp_foreach_non_finite_check_and_unscale_cuda&quot; not implemented for &apos;BFloat16&apos;): the run stops at its first step. Train in bf16, or in fp16 without mixed precision (precision fp16), or with TRL up to 0.25 (framework trl-2025).</source>
        <translation type="vanished">{framework} 会把量化模型的 LoRA 适配器转换为 bf16，而 fp16 混合精度的梯度缩放器无法对 bf16 梯度做反缩放（NotImplementedError: &quot;_amp_foreach_non_finite_check_and_unscale_cuda&quot; not implemented for &apos;BFloat16&apos;）：训练会在第一步停止。请改用 bf16 训练，或不开混合精度的 fp16（precision fp16），或使用 TRL 0.25 及更早版本（framework trl-2025）。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="188"/>
        <source>method &apos;freeze&apos; with frozen_layers 0 trains everything, like &apos;full&apos;.</source>
        <translation>method 为 &apos;freeze&apos; 且 frozen_layers 为 0 时会训练全部权重，等同于 &apos;full&apos;。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="210"/>
        <source>{gpu} has no native bf16: use fp16 (amp-fp16 / mixed-fp16) on this card.</source>
        <translation>{gpu} 不原生支持 bf16：这张卡请使用 fp16（amp-fp16 / mixed-fp16）。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="213"/>
        <source>{gpu}: the CPU and the GPU share one pool of {pool}; the GPU may use about {share}% of it by default (the capacity shown), and the CPU memory per node is checked against what the GPU leaves.</source>
        <translation>{gpu}：CPU 与 GPU 共用一块 {pool} 的内存；默认 GPU 最多可用其中约 {share}%（即所示容量），每节点的 CPU 内存按 GPU 用剩的部分检查。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/gpu_precision.py" line="28"/>
        <source>{gpu} has no fp8 tensor cores: fp8 training needs Hopper, Ada, Blackwell or MI300.</source>
        <translation>{gpu} 没有 fp8 Tensor Core：fp8 训练需要 Hopper、Ada、Blackwell 或 MI300。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/gpu_precision.py" line="32"/>
        <source>{gpu} has no NVFP4 tensor cores: NVFP4 training needs an NVIDIA Blackwell GPU (B200, GB200, B300, GB300 or a GeForce / RTX PRO Blackwell card).</source>
        <translation>{gpu} 没有 NVFP4 张量核心：NVFP4 训练需要 NVIDIA Blackwell GPU（B200、GB200、B300、GB300，或 GeForce / RTX PRO Blackwell 显卡）。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="218"/>
        <source>{gpu}: only about {share}% of unified memory is usable by the GPU by default; the capacity shown is that share.</source>
        <translation>{gpu}：默认情况下 GPU 只能使用约 {share}% 的统一内存；显示的容量就是这部分。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="229"/>
        <location filename="../../engine/planning/family.py" line="55"/>
        <source>{model} has no vision tower: images_per_sample has no effect.</source>
        <translation>{model} 没有视觉塔：images_per_sample 不起作用。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/estimate.py" line="234"/>
        <source>The {images} images of each sequence make {tokens} tokens, more than seq_len {seq_len}: the model refuses such a batch. Lengthen the sequence, or use fewer or smaller images.</source>
        <translation>每个序列的 {images} 张图像共产生 {tokens} 个 token，超过 seq_len {seq_len}：模型会拒绝这样的批次。请加长序列，或减少图像数量或缩小图像。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="150"/>
        <source>Trainable weights</source>
        <translation>可训练权重</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="137"/>
        <source>trainable params / shards x weight bytes</source>
        <translation>可训练参数量 / 分片数 x 权重字节数</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="165"/>
        <source>Frozen weights</source>
        <translation>冻结权重</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="168"/>
        <source>frozen params x weight bytes (no gradient, no optimizer state)</source>
        <translation>冻结参数量 x 权重字节数（无梯度，无优化器状态）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="190"/>
        <source>Quantised base weights</source>
        <translation>量化的基础权重</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="193"/>
        <source>quantised params / shards x (bits/8 + quantisation constants); bitsandbytes keeps its constants whole on every GPU</source>
        <translation>量化参数 / 分片数 × (位数/8 + 量化常数)；bitsandbytes 的量化常数在每块 GPU 上都保留完整一份</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="227"/>
        <source>LoRA adapters</source>
        <translation>LoRA 适配器</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="221"/>
        <source>sum over targets of r x (d_in + d_out) x adapter bytes</source>
        <translation>对各 target 求和：r x (d_in + d_out) x 适配器字节数</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="284"/>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="264"/>
        <source>trainable params / shards x grad bytes; freed by zero_grad(set_to_none), kept across accumulation steps</source>
        <translation>可训练参数量 / 分片数 x 梯度字节数；由 zero_grad(set_to_none) 释放，在梯度累积的各步之间保留</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="106"/>
        <source>Last step&apos;s gradients (param.main_grad)</source>
        <translation>上一步的梯度（param.main_grad）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="108"/>
        <source>Megatron-LM of 2021, no contiguous buffer: param.main_grad keeps the last step&apos;s gradients until the next all-reduce (trainable params x grad bytes)</source>
        <translation>2021 年的 Megatron-LM，无连续梯度缓冲区：param.main_grad 保留上一步的梯度，直到下一次 all-reduce（可训练参数 × 梯度字节数）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="119"/>
        <source>fp32 gradients (DeepSpeed BF16_Optimizer)</source>
        <translation>fp32 梯度（DeepSpeed BF16_Optimizer）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="121"/>
        <source>trainable params x 4 bytes, allocated once and zeroed every step</source>
        <translation>可训练参数 x 4 字节，只分配一次，每步清零</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="143"/>
        <source>trainable params / shards x weight bytes; the layers&apos; linear weights in fp8 (fp8_param_gather): data, and its transpose or column-wise copy where the GPU or the scaling needs one</source>
        <translation>可训练参数量 / 分片数 x 权重字节数；各层的线性层权重以 fp8 存放（fp8_param_gather）：数据本身，以及 GPU 或缩放方式需要时的转置副本或按列副本</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="207"/>
        <source>Frozen weights in the released storage</source>
        <translation>按发布格式存储的冻结权重</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="210"/>
        <source>stored values / shards x bytes per value (MXFP4: 4 bits + one 8-bit scale per 32 values; FP8: 1 byte + one fp32 scale per 128x128 block)</source>
        <translation>存储的数值 / 分片数 × 每个数值的字节数（MXFP4：4 位 + 每 32 个数值一个 8 位缩放因子；FP8：1 字节 + 每个 128x128 块一个 fp32 缩放因子）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="223"/>
        <source>sum over targets of r x (d_in + d_out) x adapter bytes; 2 bytes: the framework&apos;s trainer casts a 4-bit model&apos;s adapters to bf16</source>
        <translation>对各 target 求和：r x (d_in + d_out) x 适配器字节数；2 字节：框架的 trainer 把 4-bit 模型的适配器转为 bf16</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="269"/>
        <source>trainable params / shards x grad bytes: the contiguous gradient buffer, allocated once and zeroed every step</source>
        <translation>可训练参数 / 分片数 x 梯度字节数：连续的梯度缓冲区，只分配一次，每步清零</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="275"/>
        <source>offloaded: gradients are moved to CPU memory after reduction</source>
        <translation>已卸载：梯度在归约后移到 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="281"/>
        <source>optimizer step in backward: one parameter&apos;s gradient at a time</source>
        <translation>反向中执行优化器步：每次只保留一个参数的梯度</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="310"/>
        <source>trainable params / shards x 4 x (1 - optimizer_offload_fraction): the precision-aware optimizer&apos;s rest on the CPU</source>
        <translation>可训练参数量 / 分片数 x 4 x (1 - optimizer_offload_fraction)：精度感知优化器把其余部分放在 CPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="315"/>
        <source>fp32 master weights</source>
        <translation>fp32 主权重</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="372"/>
        <source>fp32 gradient copies (hybrid optimizer)</source>
        <translation>fp32 梯度副本（混合优化器）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="375"/>
        <source>trainable params / shards x 4 x (1 - optimizer_offload_fraction): the bf16 main gradients&apos; fp32 copies, kept until the next step</source>
        <translation>可训练参数 / 分片数 x 4 x (1 - optimizer_offload_fraction)：bf16 主梯度的 fp32 副本，保留到下一步</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="308"/>
        <source>trainable params / shards x 4</source>
        <translation>可训练参数量 / 分片数 x 4</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="344"/>
        <source>trainable params / shards x state tensors x state bytes x (1 - optimizer_offload_fraction): the rest on the CPU</source>
        <translation>可训练参数 / 分片数 x 状态张量数 x 状态字节数 x (1 - optimizer_offload_fraction)：其余在 CPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="350"/>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="340"/>
        <source>trainable params / shards x state tensors x state bytes</source>
        <translation>可训练参数量 / 分片数 x 状态张量数 x 状态字节数</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="90"/>
        <source>DDP gradient buckets</source>
        <translation>DDP 梯度桶</translation>
    </message>
    <message>
        <location filename="../../engine/memory/model_states.py" line="93"/>
        <source>one flat copy of all gradients (gradient_as_bucket_view=False)</source>
        <translation>所有梯度的一份扁平副本（gradient_as_bucket_view=False）</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="54"/>
        <source>HIP context and library workspaces</source>
        <translation>HIP 上下文和库工作区</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="55"/>
        <source>0.75 GiB per process, CUDA&apos;s measured figure (+0.25 GiB RCCL buffers when world size &gt; 1)</source>
        <translation>每个进程 0.75 GiB，沿用 CUDA 的实测值（world size &gt; 1 时另加 0.25 GiB RCCL 缓冲区）</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="57"/>
        <source>Metal device, command queues and kernel library</source>
        <translation>Metal 设备、命令队列和内核库</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="58"/>
        <source>0.75 GiB per process, CUDA&apos;s measured figure: no Metal figure is measured</source>
        <translation>每个进程 0.75 GiB，沿用 CUDA 的实测值：尚无 Metal 的实测值</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="137"/>
        <source>Activity Monitor</source>
        <translation>活动监视器</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="172"/>
        <source>Preset file {name} cannot be read: {exc}</source>
        <translation>无法读取预设文件 {name}：{exc}</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="350"/>
        <source>Unknown model preset &apos;{key}&apos;. Did you mean: {close}?</source>
        <translation>未知的模型预设 &apos;{key}&apos;。您是否指的是：{close}？</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="351"/>
        <source>Unknown model preset &apos;{key}&apos;. Run &apos;python main.py presets models&apos; for the list.</source>
        <translation>未知的模型预设 &apos;{key}&apos;。运行 &apos;python main.py presets models&apos; 查看列表。</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="353"/>
        <source>Unknown GPU preset &apos;{key}&apos;. Did you mean: {close}?</source>
        <translation>未知的 GPU 预设 &apos;{key}&apos;。您是否指的是：{close}？</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="354"/>
        <source>Unknown GPU preset &apos;{key}&apos;. Run &apos;python main.py presets gpus&apos; for the list.</source>
        <translation>未知的 GPU 预设 &apos;{key}&apos;。运行 &apos;python main.py presets gpus&apos; 查看列表。</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="380"/>
        <source>Preset file {name} is damaged: {why}</source>
        <translation>预设文件 {name} 已损坏：{why}</translation>
    </message>
    <message>
        <source>Unknown {kind} preset &apos;{key}&apos;.{hint}</source>
        <translation type="vanished">未知的 {kind} 预设 &apos;{key}&apos;。{hint}</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/custom_parts.py" line="65"/>
        <source>must be a preset id such as &quot;llama-3-8b&quot; or {{&quot;name&quot;: ..., &quot;hf_config&quot;: {{...}}}}.</source>
        <translation>必须是预设 id（如 &quot;llama-3-8b&quot;）或 {{&quot;name&quot;: ..., &quot;hf_config&quot;: {{...}}}}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/custom_parts.py" line="85"/>
        <source>a custom GPU needs &quot;memory_bytes&quot; as a positive whole number of bytes.</source>
        <translation>自定义 GPU 需要 &quot;memory_bytes&quot;，其值为以字节计的正整数。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/custom_parts.py" line="94"/>
        <source>must be a preset id such as &quot;h100-sxm-80gb&quot; or {{&quot;name&quot;: ..., &quot;memory_bytes&quot;: N}}.</source>
        <translation>必须是预设 id（如 &quot;h100-sxm-80gb&quot;）或 {{&quot;name&quot;: ..., &quot;memory_bytes&quot;: N}}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="57"/>
        <source>must be a whole number, not {value!r}.</source>
        <translation>必须是整数，而不是 {value!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="37"/>
        <source>must be a finite number, not {p}.</source>
        <translation>必须是有限的数字，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="39"/>
        <source>must be at most {maximum}, not {p}.</source>
        <translation>最大为 {maximum}，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="50"/>
        <source>is longer than {limit} characters.</source>
        <translation>超过了 {limit} 个字符。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="56"/>
        <source>the name is longer than {limit} characters.</source>
        <translation>名称超过了 {limit} 个字符。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="129"/>
        <source>config.json &apos;{key}&apos; must be a finite number, not {p}.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须是有限的数字，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="133"/>
        <source>config.json &apos;{key}&apos; is {p}, far beyond any real model.</source>
        <translation>config.json 中的 &apos;{key}&apos; 为 {p}，远超任何真实模型。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="141"/>
        <source>config.json &apos;{key}&apos; must be a whole number, not {p}.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须是整数，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="145"/>
        <location filename="../../engine/models/hf_config.py" line="95"/>
        <location filename="../../engine/models/vision.py" line="176"/>
        <source>config.json &apos;{key}&apos; must be between {low} and {high}, not {p}.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须在 {low} 到 {high} 之间，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="150"/>
        <source>config.json &apos;{key}&apos; must be a number from 0 to 1, not {p}.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须是 0 到 1 之间的数字，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="155"/>
        <source>config.json &apos;{key}&apos; must be a number of at least 0 or null, not {p}.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须是不小于 0 的数字或 null，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="160"/>
        <source>config.json &apos;{key}&apos; must be true or false, not {p}.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须是 true 或 false，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="165"/>
        <source>config.json &apos;{key}&apos; must be a list of layer numbers from 0 to 9,999.</source>
        <translation>config.json 中的 &apos;{key}&apos; 必须是 0 到 9,999 之间的层编号列表。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="170"/>
        <source>config.json &apos;{key}&apos; ({p}) cannot exceed the number of experts ({n}).</source>
        <translation>config.json 中的 &apos;{key}&apos;（{p}）不能超过专家数量（{n}）。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="174"/>
        <source>config.json &apos;{key}&apos; ({p}) exceeds hidden_size ({h}), so each head would have no width; set head_dim.</source>
        <translation>config.json 中的 &apos;{key}&apos;（{p}）超过了 hidden_size（{h}），每个注意力头将没有宽度；请设置 head_dim。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="200"/>
        <source>config.json &apos;{key}&apos; must list one of full_attention, sliding_attention, chunked_attention or linear_attention per layer.</source>
        <translation>config.json 的 &apos;{key}&apos; 必须为每一层列出 full_attention、sliding_attention、chunked_attention 或 linear_attention 之一。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="204"/>
        <source>config.json &apos;{key}&apos; names {n} layer types for {layers} layers (num_hidden_layers); transformers refuses a config whose counts differ.</source>
        <translation>config.json 的 &apos;{key}&apos; 为 {layers} 层（num_hidden_layers）列出了 {n} 个层类型；两者数目不同的配置 transformers 会拒绝加载。</translation>
    </message>
    <message>
        <location filename="../../engine/input_bounds.py" line="213"/>
        <source>linear_num_value_heads ({v}) is not a multiple of linear_num_key_heads ({k}).</source>
        <translation>linear_num_value_heads（{v}）不是 linear_num_key_heads（{k}）的整数倍。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="77"/>
        <source>must be at least {minimum}, not {value}.</source>
        <translation>至少应为 {minimum}，而不是 {value}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="372"/>
        <source>a scenario file must hold one JSON object.</source>
        <translation>场景文件必须包含一个 JSON 对象。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="383"/>
        <source>this version reads schema_version {SCHEMA_VERSION}, not {version!r}.</source>
        <translation>此版本读取的是 schema_version {SCHEMA_VERSION}，而不是 {version!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="387"/>
        <source>is required: which model is being trained?</source>
        <translation>为必填项：要训练的是哪个模型？</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="131"/>
        <location filename="../../engine/scenario/pipeline_layout.py" line="43"/>
        <source>must be text.</source>
        <translation>必须是文本。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="170"/>
        <source>must be 0, 1, 2 or 3, not {p}.</source>
        <translation>必须是 0、1、2 或 3，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="146"/>
        <source>must be 4 or 8, not {p}.</source>
        <translation>必须是 4 或 8，而不是 {p}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="149"/>
        <source>must be one of {p}; got {p2!r}.</source>
        <translation>必须是 {p} 之一；实际为 {p2!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="175"/>
        <source>must be true or false, not {p!r}.</source>
        <translation>必须是 true 或 false，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="112"/>
        <source>must be a whole number of at least 1, not {p!r}.</source>
        <translation>必须是不小于 1 的整数，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="177"/>
        <source>must be a probability from 0 to 0.99, not {p!r}.</source>
        <translation>必须是 0 到 0.99 之间的概率，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="172"/>
        <source>must be true, false or &quot;auto&quot;, not {p!r}.</source>
        <translation>必须为 true、false 或 &quot;auto&quot;，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/keys.py" line="232"/>
        <source>must be a list naming {p}; got {p2!r}.</source>
        <translation>必须是由 {p} 组成的列表；收到的是 {p2!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="24"/>
        <source>must be &quot;all-linear&quot;, &quot;attention&quot; or a non-empty list of module names.</source>
        <translation>必须是 &quot;all-linear&quot;、&quot;attention&quot; 或非空的模块名列表。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="132"/>
        <source>must be a positive number, not {p!r}.</source>
        <translation>必须是正数，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="56"/>
        <location filename="../../engine/scenario/format.py" line="233"/>
        <location filename="../../engine/scenario/posttraining_keys.py" line="180"/>
        <location filename="../../engine/scenario/posttraining_keys.py" line="187"/>
        <source>must be a number between 0 and 100, not {p!r}.</source>
        <translation>必须是 0 到 100 之间的数，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/memory_keys.py" line="117"/>
        <source>must be a number between 0 and 1, not {p!r}.</source>
        <translation>必须是 0 到 1 之间的数，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="236"/>
        <source>must be &quot;auto&quot; or a fraction from 0 to 0.99, not {p!r}.</source>
        <translation>必须是 &quot;auto&quot; 或 0 到 0.99 之间的比例，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="96"/>
        <source>more than one virtual stage per rank needs pp_schedule interleaved-1f1b.</source>
        <translation>每个 rank 多于一个虚拟阶段需要 pp_schedule 为 interleaved-1f1b。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="101"/>
        <source>pp x vpp = {chunks} model chunks cannot exceed the model&apos;s {layers} layers.</source>
        <translation>pp x vpp = {chunks} 个模型块不能超过模型的 {layers} 层。</translation>
    </message>
    <message>
        <source>Tensor-parallel size {tp} needs a number of GPUs divisible by {tp}; there are {world_size} (GPUs per node × nodes).</source>
        <translation type="vanished">张量并行规模 {tp} 要求 GPU 数能被 {tp} 整除；当前有 {world_size} 块（每节点 GPU 数 × 节点数）。</translation>
    </message>
    <message>
        <source>Tensor-parallel × pipeline-parallel × context-parallel sizes ({tp} × {pp} × {cp} = {shards}) need a number of GPUs divisible by {shards}; there are {world_size} (GPUs per node × nodes).</source>
        <translation type="vanished">张量并行 × 流水线并行 × 上下文并行规模（{tp} × {pp} × {cp} = {shards}）要求 GPU 数能被 {shards} 整除；当前有 {world_size} 块（每节点 GPU 数 × 节点数）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="50"/>
        <source>Tensor-parallel size {tp} needs a number of GPUs divisible by {tp}; there are {world_size:,} (GPUs per node × nodes).</source>
        <translation>张量并行规模 {tp} 要求 GPU 数能被 {tp} 整除；当前有 {world_size:,} 块（每节点 GPU 数 × 节点数）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="56"/>
        <source>Tensor-parallel × pipeline-parallel × context-parallel sizes ({tp} × {pp} × {cp} = {shards}) need a number of GPUs divisible by {shards}; there are {world_size:,} (GPUs per node × nodes).</source>
        <translation>张量并行 × 流水线并行 × 上下文并行规模（{tp} × {pp} × {cp} = {shards}）要求 GPU 数能被 {shards} 整除；当前有 {world_size:,} 块（每节点 GPU 数 × 节点数）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="65"/>
        <source>Tensor-parallel size {tp} must divide the model&apos;s {heads} attention heads.</source>
        <translation>张量并行规模 {tp} 必须整除模型的 {heads} 个注意力头。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="73"/>
        <source>Tensor-parallel size {tp} must divide the model&apos;s {heads} Mamba heads and its {groups} Mamba groups.</source>
        <translation>张量并行规模 {tp} 必须整除模型的 {heads} 个 Mamba 头及其 {groups} 个 Mamba 组。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="80"/>
        <source>Tensor-parallel size {tp} and the model&apos;s {kv_heads} key/value heads must divide one another.</source>
        <translation>张量并行规模 {tp} 与模型的 {kv_heads} 个键/值头必须能互相整除。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="89"/>
        <source>Pipeline-parallel size {pp} cannot exceed the model&apos;s {layers} layers.</source>
        <translation>流水线并行规模 {pp} 不能超过模型的 {layers} 层。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="93"/>
        <source>pp_schedule zbv runs two model chunks per rank: vpp 2.</source>
        <translation>pp_schedule zbv 每个 rank 运行两个模型块：vpp 须为 2。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="116"/>
        <source>Recompute layers ({n}) cannot exceed the {largest} decoder layers of one pipeline stage&apos;s model chunk ({layers} layers over {chunks} chunks).</source>
        <translation>重算层数 ({n}) 不能超过一个流水线阶段模型块的 {largest} 个解码器层（{layers} 层分为 {chunks} 块）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="142"/>
        <source>Expert parallelism needs a mixture-of-experts model; {model} has no experts.</source>
        <translation>专家并行需要混合专家（MoE）模型；{model} 没有专家。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="147"/>
        <source>Expert-parallel size {ep} must divide the model&apos;s {n_experts} experts.</source>
        <translation>专家并行规模 {ep} 必须整除模型的 {n_experts} 个专家。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="156"/>
        <source>Expert-parallel size {ep} must divide the {p} data-parallel copies (GPUs ÷ tensor-parallel ÷ pipeline-parallel size).</source>
        <translation>专家并行规模 {ep} 必须整除 {p} 个数据并行副本（GPU 数 ÷ 张量并行 ÷ 流水线并行规模）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="165"/>
        <source>Expert tensor-parallel size {etp} must divide the {p} GPUs of a pipeline stage (tensor-parallel × data-parallel × context-parallel size).</source>
        <translation>专家张量并行规模 {etp} 必须整除一个流水线阶段的 {p} 个 GPU（张量并行 × 数据并行 × 上下文并行规模）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="173"/>
        <source>Tokens per micro-batch ({tokens}) must hold at least one whole sequence ({seq_len} tokens).</source>
        <translation>每个微批次的 token 数（{tokens}）必须至少容纳一条完整序列（{seq_len} 个 token）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="180"/>
        <source>Context-parallel size {cp} must divide the sequence length ({seq_len} tokens).</source>
        <translation>上下文并行规模 {cp} 必须整除序列长度（{seq_len} 个 token）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="190"/>
        <source>FSDP full sharding is ZeRO-3; it cannot be combined with ZeRO stage {zero_stage}.</source>
        <translation>FSDP 完全分片即 ZeRO-3，不能与 ZeRO 阶段 {zero_stage} 同时使用。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="199"/>
        <source>Offloading to the CPU needs sharding: ZeRO stage 1 or more, or FSDP.</source>
        <translation>卸载到 CPU 需要分片：ZeRO 阶段 1 及以上，或 FSDP。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="203"/>
        <source>Offloading the weights to the CPU needs ZeRO-3 or FSDP.</source>
        <translation>把权重卸载到 CPU 需要 ZeRO-3 或 FSDP。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="212"/>
        <source>Frozen layers ({frozen}) cannot exceed the model&apos;s {layers} layers.</source>
        <translation>冻结层数（{frozen}）不能超过模型的 {layers} 层。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="218"/>
        <source>LoRA layers ({adapted}) cannot exceed the model&apos;s {layers} layers.</source>
        <translation>LoRA 层数（{adapted}）不能超过模型的 {layers} 层。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="228"/>
        <source>Adapted layers: {bad!r} is not a linear layer of this model; choose from {p}, or all linear layers (&quot;all-linear&quot;).</source>
        <translation>加适配器的层：{bad!r} 不是此模型的线性层；请从 {p} 中选择，或选所有线性层（&quot;all-linear&quot;）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="238"/>
        <source>steps the optimizer during backward, so it cannot accumulate gradients over {ga} micro-batches: set grad_accum to 1.</source>
        <translation>在反向传播中执行优化器步，因此无法在 {ga} 个微批次上累积梯度：请把 grad_accum 设为 1。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="245"/>
        <source>cannot be combined with optimizer offloading to the CPU.</source>
        <translation>不能与把优化器卸载到 CPU 同时使用。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/consistency.py" line="250"/>
        <source>applies to LoRA and QLoRA only; the other methods already train these modules.</source>
        <translation>只适用于 LoRA 和 QLoRA；其他方法本来就训练这些模块。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="92"/>
        <source>Base model (seed 004)</source>
        <translation>基础模型（seed 004）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="95"/>
        <source>N x 2 (LoRA) or N x 0.6 (QLoRA, &apos;typical setting&apos;)</source>
        <translation>N x 2（LoRA）或 N x 0.6（QLoRA，“典型设置”）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="103"/>
        <source>LoRA training states (seed 004)</source>
        <translation>LoRA 训练状态（seed 004）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="106"/>
        <source>N_lora x c_opt, N_lora = L x 18 x r x H</source>
        <translation>N_lora x c_opt, N_lora = L x 18 x r x H</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="123"/>
        <source>Activations (K-factor)</source>
        <translation>激活值（K 系数）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="126"/>
        <source>B x T x H x L x K x 2 bytes</source>
        <translation>B x T x H x L x K x 2 字节</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="138"/>
        <source>Activations (alpha x active params)</source>
        <translation>激活值（alpha x 激活参数量）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="141"/>
        <source>alpha x N_active, alpha = (bs/h)(5 + 5as/6h)</source>
        <translation>alpha x N_active, alpha = (bs/h)(5 + 5as/6h)</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="148"/>
        <source>Activations (per operation)</source>
        <translation>激活值（逐算子）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="151"/>
        <source>per layer 60bsh + 10bas^2 (flash removes the s^2 term; checkpointing keeps 2bsh)</source>
        <translation>每层 60bsh + 10bas^2（flash 去掉 s^2 项；激活检查点保留 2bsh）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="170"/>
        <source>Logits spike (fp32)</source>
        <translation>Logits 尖峰（fp32）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="173"/>
        <source>b x s x V x 4</source>
        <translation>b x s x V x 4</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="182"/>
        <source>EP all-to-all buffers</source>
        <translation>EP all-to-all 缓冲区</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="185"/>
        <source>ep x capacity x h x 2 bytes x 2 directions</source>
        <translation>ep x capacity x h x 2 字节 x 2 个方向</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="193"/>
        <source>CUDA context (seed 000)</source>
        <translation>CUDA 上下文（seed 000）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/seeds.py" line="196"/>
        <source>1 GB</source>
        <translation>1 GB</translation>
    </message>
    <message>
        <location filename="../../engine/planning/plan.py" line="15"/>
        <source>global batch</source>
        <translation>全局批次大小</translation>
    </message>
    <message>
        <location filename="../../engine/planning/plan.py" line="15"/>
        <source>method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../../engine/planning/plan.py" line="16"/>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <location filename="../../engine/planning/plan.py" line="16"/>
        <source>hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <location filename="../../engine/planning/plan.py" line="17"/>
        <source>numerics</source>
        <translation>数值精度</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="47"/>
        <source>recomputation costs ~30-40% more compute</source>
        <translation>重算会多花约 30-40% 的计算量</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="48"/>
        <source>smaller micro-batches use the GPU less efficiently; same global batch, same maths</source>
        <translation>较小的微批次对 GPU 的利用率较低；全局批次不变，数学上等价</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="49"/>
        <source>8-bit AdamW (bitsandbytes): optimizer states quantised, quality close to 32-bit AdamW</source>
        <translation>8-bit AdamW（bitsandbytes）：优化器状态被量化，效果接近 32-bit AdamW</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="50"/>
        <source>LoRA trains only the adapters (a small fraction of the parameters): close to, not equal to, full fine-tuning</source>
        <translation>LoRA 只训练适配器（参数中的一小部分）：效果接近但不等同于全量微调</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="53"/>
        <source>QLoRA is slower than LoRA (~+30-40% from dequantisation) and slightly lower quality</source>
        <translation>QLoRA 比 LoRA 慢（反量化带来约 +30-40% 的开销），效果也略差</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="54"/>
        <source>the frozen weights are rounded to 16 bits; the adapters train as before</source>
        <translation>冻结权重舍入为 16 位；适配器照常训练</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="55"/>
        <source>shorter sequences: less context per sample; long-context behaviour is not learned</source>
        <translation>序列更短：每个样本的上下文更少；学不到长上下文的能力</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="56"/>
        <source>ZeRO adds communication (ZeRO-3/FSDP gathers weights every step)</source>
        <translation>ZeRO 会增加通信（ZeRO-3/FSDP 每步都要收集权重）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="57"/>
        <source>TP needs fast NVLink inside the node (communication in every layer)</source>
        <translation>TP 需要节点内的高速 NVLink（每一层都有通信）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="58"/>
        <source>PP adds pipeline bubbles (idle ~ (pp-1)/(grad_accum+pp-1) of the time)</source>
        <translation>PP 会引入流水线气泡（约 (pp-1)/(grad_accum+pp-1) 的时间处于空闲）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="59"/>
        <source>Liger kernels (pip install liger-kernel): the same maths, usually a little faster</source>
        <translation>Liger 内核（pip install liger-kernel）：计算相同，通常还略快一些</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="60"/>
        <source>offload: steps several times (up to 10x) slower, bound by PCIe; needs ample CPU RAM</source>
        <translation>卸载：受 PCIe 限制，每步慢好几倍（最多 10 倍）；需要充足的 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="70"/>
        <source>turn on activation checkpointing</source>
        <translation>开启激活检查点</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="71"/>
        <source>recompute whole layers (full activation checkpointing)</source>
        <translation>重算整层（完整激活检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="74"/>
        <source>recompute every layer</source>
        <translation>重算每一层</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="84"/>
        <source>use FlashAttention</source>
        <translation>使用 FlashAttention</translation>
    </message>
    <message>
        <source>use micro-batch {m} with {k}x the gradient accumulation</source>
        <translation type="vanished">微批次改为 {m}，梯度累积增加到 {k} 倍</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="99"/>
        <source>use the 8-bit AdamW optimizer</source>
        <translation>使用 8-bit AdamW 优化器</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="149"/>
        <source>use LoRA (r={rank}, all linear layers)</source>
        <translation>使用 LoRA（r={rank}，所有线性层）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="150"/>
        <source>use LoRA (r={rank})</source>
        <translation>使用 LoRA（r={rank}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="151"/>
        <source>use QLoRA ({bits}-bit base weights, r={rank}, all linear layers)</source>
        <translation>使用 QLoRA（{bits}-bit 基础权重，r={rank}，所有线性层）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="152"/>
        <source>use QLoRA ({bits}-bit base weights, r={rank})</source>
        <translation>使用 QLoRA（{bits}-bit 基础权重，r={rank}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="110"/>
        <source>shard with ZeRO-1 (optimizer states)</source>
        <translation>用 ZeRO-1 切分（优化器状态）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="44"/>
        <source>set micro-batch to {m} and gradient accumulation to {ga} (the same global batch)</source>
        <translation>把微批次设为 {m}、梯度累积设为 {ga}（全局批次不变）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="46"/>
        <source>set micro-batch to {m}</source>
        <translation>把微批次设为 {m}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="111"/>
        <source>shard with ZeRO-2 (optimizer states and gradients)</source>
        <translation>用 ZeRO-2 切分（优化器状态和梯度）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="112"/>
        <source>shard with ZeRO-3 / FSDP full sharding</source>
        <translation>用 ZeRO-3 / FSDP 完全切分</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="113"/>
        <source>shard with FSDP (weights, gradients and optimizer states)</source>
        <translation>用 FSDP 分片（权重、梯度和优化器状态）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="118"/>
        <source>shard over all {n} data-parallel GPUs instead of within groups of {group}</source>
        <translation>在全部 {n} 块数据并行 GPU 上分片，而不是在每 {group} 块一组内分片</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="123"/>
        <source>use tensor parallelism tp={tp} with sequence parallelism</source>
        <translation>使用张量并行 tp={tp} 并开启序列并行</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="127"/>
        <source>use pipeline parallelism pp={pp}</source>
        <translation>使用流水线并行 pp={pp}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="158"/>
        <source>load the base model in {dtype} (frozen weights in 2 bytes, as most LoRA recipes do)</source>
        <translation>以 {dtype} 加载基座模型（冻结权重每个 2 字节，大多数 LoRA 配方都这样做）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="187"/>
        <source>move {share} of the optimizer states to CPU memory (Megatron&apos;s optimizer_offload_fraction)</source>
        <translation>将 {share} 的优化器状态移到 CPU 内存（Megatron 的 optimizer_offload_fraction）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="204"/>
        <source>offload the optimizer states to CPU memory ({mechanism})</source>
        <translation>把优化器状态卸载到 CPU 内存（{mechanism}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="205"/>
        <source>offload the optimizer states to CPU memory</source>
        <translation>把优化器状态卸载到 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="207"/>
        <source>offload weights, gradients and optimizer states to CPU memory ({mechanism})</source>
        <translation>把权重、梯度和优化器状态卸载到 CPU 内存（{mechanism}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="209"/>
        <source>offload optimizer states and weights to CPU memory</source>
        <translation>把优化器状态和权重卸载到 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../engine/planning/solver.py" line="100"/>
        <source>shard with ZeRO-3 instead of FSDP, whose CPU offload moves the weights too (ZeRO-3 offloads the optimizer alone)</source>
        <translation>改用 ZeRO-3 分片而非 FSDP（FSDP 的 CPU 卸载会连同权重一起卸载；ZeRO-3 可只卸载优化器）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/solver.py" line="105"/>
        <source>shorten sequences to {new} tokens (from {old})</source>
        <translation>把序列缩短到 {new} 个 token（原为 {old}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/solver.py" line="113"/>
        <source>use {n:,} GPUs ({nodes} x {per_node}) with {layout}</source>
        <translation>使用 {n:,} 张 GPU（{nodes} × {per_node}），{layout}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/solver.py" line="116"/>
        <source>use {n:,} GPUs ({nodes} x {per_node}) with {sharding}</source>
        <translation>使用 {n:,} 张 GPU（{nodes} × {per_node}），{sharding}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/solver.py" line="119"/>
        <source>more GPUs cost money: {n:,} instead of {old:,}</source>
        <translation>更多 GPU 意味着更多花费：{n:,} 张而不是 {old:,} 张</translation>
    </message>
    <message>
        <source>use {n} GPUs ({nodes} x {per_node}) with {layout}</source>
        <translation type="vanished">使用 {n} 张 GPU（{nodes} × {per_node}），{layout}</translation>
    </message>
    <message>
        <source>use {n} GPUs ({nodes} x {per_node}) with {sharding}</source>
        <translation type="vanished">使用 {n} 张 GPU（{nodes} × {per_node}），{sharding}</translation>
    </message>
    <message>
        <source>more GPUs cost money: {n} instead of {old}</source>
        <translation type="vanished">更多 GPU 意味着更多花费：{n} 张而不是 {old} 张</translation>
    </message>
    <message>
        <location filename="../../engine/planning/solver.py" line="125"/>
        <source>set gradient accumulation to {n} to keep the global batch</source>
        <translation>把梯度累积设为 {n} 以保持全局批次不变</translation>
    </message>
    <message>
        <location filename="../../engine/planning/solver.py" line="126"/>
        <source>set gradient accumulation to {n}</source>
        <translation>把梯度累积设为 {n}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="62"/>
        <source>Upgrade PyTorch to 2.1 or later (its foreach AdamW adds eps in place)</source>
        <translation>将 PyTorch 升级到 2.1 或更高版本（其 foreach AdamW 原地加上 eps）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="64"/>
        <source>the same training; check the torch release your other libraries pin</source>
        <translation>训练内容不变；请检查其他库所固定的 torch 版本</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="67"/>
        <source>Use fused AdamW ({setting})</source>
        <translation>改用融合 AdamW（{setting}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="73"/>
        <source>Turn on activation checkpointing</source>
        <translation>开启激活检查点</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="74"/>
        <source>Recompute whole layers (full activation checkpointing)</source>
        <translation>重算整层（完整激活检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="77"/>
        <source>Turn on activation checkpointing and FlashAttention</source>
        <translation>开启激活检查点和 FlashAttention</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="78"/>
        <source>Use FlashAttention</source>
        <translation>使用 FlashAttention</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="78"/>
        <source>Recompute whole layers (full activation checkpointing) and use FlashAttention</source>
        <translation>重算整层（完整激活检查点）并使用 FlashAttention</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="81"/>
        <source>recomputes each layer in backward: about 30-40% more compute</source>
        <translation>反向时重算每一层：计算量约增加 30-40%</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="83"/>
        <source>the same maths in tiles: no attention-score matrix is kept</source>
        <translation>同样的计算分块进行：不保存注意力分数矩阵</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="85"/>
        <source>Recompute every layer (full activation checkpointing)</source>
        <translation>重算每一层（完全激活检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="87"/>
        <source>the layers kept whole are recomputed too: one more forward each</source>
        <translation>原先完整保留的层也要重算：每层多一次前向计算</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="92"/>
        <source>pip install liger-kernel; the same training, usually a little faster</source>
        <translation>pip install liger-kernel；训练内容不变，通常还略快一些</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="94"/>
        <source>Halve the micro-batch to {micro_batch}, accumulate {steps} steps</source>
        <translation>将微批次减半为 {micro_batch}，梯度累积 {steps} 步</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="97"/>
        <source>same global batch; more, smaller steps are somewhat slower</source>
        <translation>全局批次不变；步数更多、每步更小，会稍慢一些</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="107"/>
        <source>Train LoRA adapters (r=16, all linear layers) instead of all weights</source>
        <translation>改为训练 LoRA 适配器（r=16，全部线性层），而不是全部权重</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="112"/>
        <source>trains far fewer parameters; quality can differ from a full fine-tune</source>
        <translation>训练的参数少得多；效果可能与全量微调不同</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="116"/>
        <source>Load the base model in {dtype} (as most LoRA recipes do)</source>
        <translation>以 {dtype} 加载基座模型（大多数 LoRA 配方都这样做）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="118"/>
        <source>the frozen weights in 2 bytes instead of 4; the adapters train as before</source>
        <translation>冻结权重每个 2 字节而不是 4 字节；适配器照常训练</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="123"/>
        <source>Quantise the base model to 4-bit (QLoRA)</source>
        <translation>将基础模型量化为 4-bit（QLoRA）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="125"/>
        <source>dequantisation makes steps ~30-40% slower than LoRA; small quality cost</source>
        <translation>反量化使每步比 LoRA 慢约 30-40%；效果略有损失</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="128"/>
        <source>Use an 8-bit optimizer (AdamW 8-bit)</source>
        <translation>使用 8-bit 优化器（AdamW 8-bit）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="130"/>
        <source>bitsandbytes 8-bit states; usually the same quality</source>
        <translation>bitsandbytes 8-bit 状态；效果通常不变</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="132"/>
        <source>Shorten sequences to {tokens} tokens</source>
        <translation>将序列缩短到 {tokens} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="134"/>
        <source>the model sees shorter contexts: changes what it learns</source>
        <translation>模型看到的上下文变短：会改变它学到的内容</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="136"/>
        <source>Shard weights, gradients and optimizer states (ZeRO-3 / FSDP)</source>
        <translation>对权重、梯度和优化器状态分片（ZeRO-3 / FSDP）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="138"/>
        <source>more communication: needs a fast interconnect</source>
        <translation>通信更多：需要高速互联</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="141"/>
        <source>Tensor parallelism TP={tp}</source>
        <translation>张量并行 TP={tp}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="142"/>
        <source>splits every layer across GPUs: needs NVLink-class bandwidth</source>
        <translation>将每一层拆分到多块 GPU 上：需要 NVLink 级别的带宽</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="144"/>
        <source>Pipeline parallelism PP={pp}</source>
        <translation>流水线并行 PP={pp}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="146"/>
        <source>pipeline bubbles cost throughput unless many micro-batches are in flight</source>
        <translation>除非同时在途的微批次很多，否则流水线气泡会降低吞吐量</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="169"/>
        <source>the change its framework needs to run this layout</source>
        <translation>其框架运行此布局所需的改动</translation>
    </message>
    <message>
        <location filename="../../engine/planning/offload_suggest.py" line="69"/>
        <source>Offload optimizer states to CPU memory</source>
        <translation>将优化器状态卸载到 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../engine/planning/offload_suggest.py" line="64"/>
        <source>several times (up to 10x) slower: PCIe-bound</source>
        <translation>慢好几倍（最多 10 倍）：受 PCIe 限制</translation>
    </message>
    <message>
        <location filename="../../engine/planning/offload_suggest.py" line="67"/>
        <source>Offload optimizer states to CPU memory ({mechanism})</source>
        <translation>把优化器状态卸载到 CPU 内存（{mechanism}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/offload_suggest.py" line="73"/>
        <source>Offload weights, gradients and optimizer states to CPU memory ({mechanism})</source>
        <translation>把权重、梯度和优化器状态卸载到 CPU 内存（{mechanism}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/offload_suggest.py" line="81"/>
        <source>Move {share} of the optimizer states to CPU memory (Megatron&apos;s optimizer_offload_fraction {fraction})</source>
        <translation>将 {share} 的优化器状态移到 CPU 内存（Megatron 的 optimizer_offload_fraction {fraction}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/offload_suggest.py" line="23"/>
        <source>each step waits for a CPU AdamW over that share: Megatron-Bridge measured +88% step time at 25%, +321% at 100%</source>
        <translation>每一步都要等待这部分的 CPU AdamW：Megatron-Bridge 实测 25% 时步时 +88%，100% 时 +321%</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="241"/>
        <source>{users} users at once at {tokens} tokens</source>
        <translation>每人 {tokens} 个 token 时同时服务 {users} 个用户</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="42"/>
        <source>A file name cannot hold a NUL character, so {name} is not read.</source>
        <translation>文件名中不能含有 NUL 字符，因此不读取 {name}。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="49"/>
        <source>{name} is a folder, not a file.</source>
        <translation>{name} 是文件夹，不是文件。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="51"/>
        <source>{name} is a pipe (FIFO), not a regular file; it is not read.</source>
        <translation>{name} 是管道（FIFO），不是普通文件；不会读取它。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="53"/>
        <source>{name} is a device or socket, not a regular file; it is not read.</source>
        <translation>{name} 是设备或套接字，不是普通文件；不会读取它。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="57"/>
        <location filename="../../engine/safe_read.py" line="71"/>
        <source>{name} is larger than {limit}, which is more than such a file can be.</source>
        <translation>{name} 大于 {limit}，超出了此类文件可能的大小。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="82"/>
        <location filename="../../engine/safe_read.py" line="83"/>
        <source>permission denied</source>
        <translation>没有访问权限</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="84"/>
        <source>there is no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="85"/>
        <source>its symbolic links form a loop</source>
        <translation>其符号链接构成了循环</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="86"/>
        <source>it is a folder</source>
        <translation>它是文件夹</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="87"/>
        <source>its name is too long</source>
        <translation>文件名过长</translation>
    </message>
    <message>
        <location filename="../../engine/safe_read.py" line="88"/>
        <source>the disk reported an input/output error</source>
        <translation>磁盘报告了输入/输出错误</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="35"/>
        <source>is the old name of {new}, and the file sets both.</source>
        <translation>是 {new} 的旧名称，而文件同时设置了两者。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="48"/>
        <source>must be a whole number, not {version!r}.</source>
        <translation>必须是整数，而不是 {version!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="59"/>
        <source>{version} is from a newer LLM Memory Planner (this one reads up to {current}).</source>
        <translation>{version} 来自更新版本的 LLM Memory Planner（本版本最多读取 {current}）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="72"/>
        <source>is larger than 8 MB; a scenario is a few kilobytes.</source>
        <translation>大于 8 MB；一个场景只有几 KB。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="76"/>
        <source>is not UTF-8 text; it may be damaged or not a scenario.</source>
        <translation>不是 UTF-8 文本；它可能已损坏或不是场景文件。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="84"/>
        <source>must hold one JSON object {{...}}.</source>
        <translation>必须包含一个 JSON 对象 {{...}}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="88"/>
        <source>was saved by a newer LLM Memory Planner (schema_version {version}; this version reads up to {current}).</source>
        <translation>由更新版本的 LLM Memory Planner 保存（schema_version {version}；本版本最多读取 {current}）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="99"/>
        <source>could not be read ({p}: {exc}).</source>
        <translation>无法读取（{p}：{exc}）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="79"/>
        <location filename="../../engine/scenario/file.py" line="112"/>
        <source>cannot be read: {p}.</source>
        <translation>无法读取：{p}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/vision.py" line="171"/>
        <source>vision_config &apos;{key}&apos; must be a positive whole number, not {value!r}.</source>
        <translation>vision_config 的“{key}”必须是正整数，而不是 {value!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/vision.py" line="188"/>
        <source>config.json &apos;vision_config&apos; must be an object of the tower&apos;s settings, not {value!r}.</source>
        <translation>config.json 的“vision_config”必须是列出视觉塔设置的对象，而不是 {value!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/vision.py" line="196"/>
        <source>The vision tower &apos;{kind}&apos; of this model is not modelled yet.</source>
        <translation>尚未对该模型的视觉塔“{kind}”建模。</translation>
    </message>
    <message>
        <location filename="../../engine/models/vision.py" line="232"/>
        <source>vision_config&apos;s {heads} heads do not divide its hidden_size {hidden}: transformers cannot split the tower&apos;s attention into heads.</source>
        <translation>vision_config 的 {heads} 个注意力头不能整除其 hidden_size {hidden}：transformers 无法把视觉塔的注意力拆分成各个头。</translation>
    </message>
    <message>
        <location filename="../../engine/models/vision.py" line="236"/>
        <source>vision_config &apos;out_hidden_size&apos; ({out}) is not the language model&apos;s hidden_size ({text}): the tower&apos;s outputs replace the image tokens&apos; embeddings, so transformers refuses any batch with images.</source>
        <translation>vision_config 的“out_hidden_size”（{out}）不等于语言模型的 hidden_size（{text}）：视觉塔的输出要替换图像词元的嵌入，因此 transformers 会拒绝任何带图像的批次。</translation>
    </message>
    <message>
        <location filename="../../engine/models/vision.py" line="250"/>
        <source>vision_config &apos;{key}&apos; must be a list, not {value!r}.</source>
        <translation>vision_config 的“{key}”必须是列表，而不是 {value!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/vision.py" line="254"/>
        <source>config.json &apos;{key}&apos; must list distinct block numbers from 0 to {last} (the tower&apos;s depth less one).</source>
        <translation>config.json 的“{key}”必须列出互不重复的块编号，范围为 0 到 {last}（视觉塔深度减一）。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="84"/>
        <location filename="../../engine/configs/swift_config.py" line="91"/>
        <source>{name} does not hold a set of named settings, so it is not a training config.</source>
        <translation>{name} 不包含一组具名设置，因此不是训练配置。</translation>
    </message>
    <message>
        <source>{name} is not a training config the planner knows (DeepSpeed, accelerate, TrainingArguments/TRL, torchtune, axolotl, LLaMA-Factory, ms-swift, torchtitan or a Megatron-LM script).</source>
        <translation type="vanished">{name} 不是规划器认识的训练配置（DeepSpeed、accelerate、TrainingArguments/TRL、torchtune、axolotl、LLaMA-Factory、ms-swift、torchtitan 或 Megatron-LM 脚本）。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="45"/>
        <source>{name} has a setting of an unexpected type ({detail}); it cannot be imported.</source>
        <translation>{name} 中有类型不符的设置（{detail}），无法导入。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="161"/>
        <source>No file to import.</source>
        <translation>没有要导入的文件。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="164"/>
        <source>At most {n} files make one job; {m} were given.</source>
        <translation>一个训练任务最多 {n} 个文件，实际给出了 {m} 个。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/references.py" line="66"/>
        <source>{ref} cannot be read: {exc}</source>
        <translation>无法读取 {ref}：{exc}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/references.py" line="80"/>
        <source>{ref} was not imported: ZeRO stage {stage} taken from its name</source>
        <translation>未导入 {ref}：根据文件名取 ZeRO 阶段 {stage}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/references.py" line="91"/>
        <source>{ref} was not imported: offload taken from its name</source>
        <translation>未导入 {ref}：根据文件名取卸载设置</translation>
    </message>
    <message>
        <location filename="../../engine/configs/references.py" line="97"/>
        <source>{ref} is outside the job&apos;s folder, so it was not read; give it with the other files to import it</source>
        <translation>{ref} 位于该训练任务的文件夹之外，因此未读取；如需导入，请把它与其他文件一起给出</translation>
    </message>
    <message>
        <location filename="../../engine/configs/references.py" line="107"/>
        <source>{ref} was not imported; import it together with this file</source>
        <translation>未导入 {ref}；请与此文件一起导入</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="270"/>
        <source>says {key} = {value!r} but {other} says {kept!r}; kept {kept!r}</source>
        <translation>此处为 {key} = {value!r}，但 {other} 为 {kept!r}；保留 {kept!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed_merged.py" line="27"/>
        <source>DeepSpeed trains 16-bit weights with fp32 master weights in its optimizer</source>
        <translation>DeepSpeed 训练 16 位权重，并在优化器中保留 fp32 主权重</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed_merged.py" line="38"/>
        <source>DeepSpeed casts the whole model, adapters included, to the 16-bit dtype</source>
        <translation>DeepSpeed 会把整个模型（包括适配器）转换为 16 位数据类型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="294"/>
        <source>{key} = {value!r}: not modelled yet (the planner has no &apos;{key}&apos; setting)</source>
        <translation>{key} = {value!r}：尚未建模（规划器没有“{key}”设置）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="200"/>
        <source>no model preset matched; pick the model in the planner</source>
        <translation>没有匹配的模型预设；请在规划器中选择模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="104"/>
        <source>{name} is a scenario of this planner, not a training config: open it instead (File &gt; Open a scenario file in the window; `estimate {name}` on the command line).</source>
        <translation>{name} 是本规划器的场景文件，不是训练配置：请直接打开它（窗口中的“文件 &gt; 打开场景文件”；命令行中的 `estimate {name}`）。</translation>
    </message>
    <message>
        <source>{name} is not a training config the planner knows (DeepSpeed, accelerate, TrainingArguments/TRL, torchtune, axolotl, LLaMA-Factory, ms-swift, torchtitan, verl, OpenRLHF or a Megatron-LM script).</source>
        <translation type="vanished">{name} 不是规划器认识的训练配置（DeepSpeed、accelerate、TrainingArguments/TRL、torchtune、axolotl、LLaMA-Factory、ms-swift、torchtitan、verl、OpenRLHF 或 Megatron-LM 脚本）。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="116"/>
        <source>{name} is not a training config the planner knows (DeepSpeed, accelerate, TrainingArguments/TRL, torchtune, axolotl, LLaMA-Factory, ms-swift, torchtitan, verl, OpenRLHF, mlx-lm or a Megatron-LM script).</source>
        <translation>{name} 不是规划器认识的训练配置（DeepSpeed、accelerate、TrainingArguments/TRL、torchtune、axolotl、LLaMA-Factory、ms-swift、torchtitan、verl、OpenRLHF、mlx-lm 或 Megatron-LM 脚本）。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="206"/>
        <source>training configs do not name the GPU; choose it in the planner</source>
        <translation>训练配置不指明 GPU；请在规划器中选择</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="218"/>
        <source>not in the files: the planner&apos;s default</source>
        <translation>文件中未给出：使用规划器的默认值</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="234"/>
        <source>not in the files: the least the files&apos; parallel layout needs</source>
        <translation>文件中未给出：取文件中并行布局所需的最少数量</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="369"/>
        <source>{key} = {value} rejected: {why}</source>
        <translation>{key} = {value} 被拒绝：{why}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="384"/>
        <source>{n} trainable layers of {layers}: nothing frozen</source>
        <translation>{layers} 层中有 {n} 层可训练：没有冻结任何层</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="394"/>
        <source>{n} trainable layers of the model&apos;s {layers}</source>
        <translation>模型共 {layers} 层，其中 {n} 层可训练</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="410"/>
        <source>adapters on the top {n} of the model&apos;s {layers} layers (layers_to_transform)</source>
        <translation>适配器位于模型 {layers} 层中的顶部 {n} 层（layers_to_transform）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/importing.py" line="414"/>
        <source>adapters on layers {indices} of {layers}: only the top layers can be stated (lora_layers)</source>
        <translation>适配器位于 {layers} 层中的第 {indices} 层：只能表示顶部的若干层（lora_layers）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed_merged.py" line="64"/>
        <source>&quot;auto&quot;: {factor:g} x hidden_size^2 ({hidden}), as the HF Trainer fills it</source>
        <translation>&quot;auto&quot;：{factor:g} × hidden_size²（{hidden}），与 HF Trainer 的填充方式相同</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="70"/>
        <source>{name} is larger than 1 MB; a training config is a few kilobytes.</source>
        <translation>{name} 大于 1 MB；训练配置通常只有几 KB。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="62"/>
        <location filename="../../engine/diagnosis/command.py" line="37"/>
        <location filename="../../engine/models/config_file.py" line="32"/>
        <source>Cannot read {name}: {why}.</source>
        <translation>无法读取 {name}：{why}。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="77"/>
        <source>{name} is damaged UTF-16 text; save it as UTF-8 and import it again.</source>
        <translation>{name} 是已损坏的 UTF-16 文本；请将其另存为 UTF-8 后重新导入。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="82"/>
        <source>{name} is a binary file, not a text configuration.</source>
        <translation>{name} 是二进制文件，不是文本配置。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="87"/>
        <source>{name} is not UTF-8 text, so it is not a configuration file.</source>
        <translation>{name} 不是 UTF-8 文本，因此不是配置文件。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="94"/>
        <source>{name} is not valid {kind} ({detail}).</source>
        <translation>{name} 不是有效的 {kind}（{detail}）。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="197"/>
        <source>{name} holds a number of thousands of digits; no setting is that large, so it is not imported.</source>
        <translation>{name} 中有一个长达数千位的数字；没有哪项设置会有这么大，因此不予导入。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="211"/>
        <source>{name} holds more than {n} values; a training config holds a few hundred, so it is not imported.</source>
        <translation>{name} 含有超过 {n} 个值；训练配置只有几百个，因此不予导入。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="223"/>
        <source>{name} is nested more than {depth} levels deep; a training config is not.</source>
        <translation>{name} 嵌套超过 {depth} 层；训练配置不会这样。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="215"/>
        <source>{name} expands to more than {n} values (YAML aliases?); refused.</source>
        <translation>{name} 展开后超过 {n} 个值（YAML 别名？），已拒绝。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/reading.py" line="247"/>
        <source>{name} uses a key that is not text ({key!r}).</source>
        <translation>{name} 使用了非文本的键（{key!r}）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="93"/>
        <source>{field} of a custom GPU must be a positive number, not {v!r}.</source>
        <translation>自定义 GPU 的 {field} 必须是正数，而不是 {v!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="49"/>
        <source>must be a positive number or null, not {p!r}.</source>
        <translation>必须是正数或 null，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="50"/>
        <source>must be from {low:g} to {high:g} bytes per second (1 MB/s to 1 PB/s) or null, not {p!r}.</source>
        <translation>必须在 {low:g} 到 {high:g} 字节/秒之间（1 MB/s 到 1 PB/s）或为 null，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="97"/>
        <source>{field} of a custom GPU must be from {low:g} to {high:g}, not {v:.3g}.</source>
        <translation>自定义 GPU 的 {field} 必须在 {low:g} 到 {high:g} 之间，而不是 {v:.3g}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="105"/>
        <source>fp8_tflops of a custom GPU must be at most {ratio} times its bf16_tflops (or, without one, its fp16 or fp32 figure), as on every GPU known.</source>
        <translation>自定义 GPU 的 fp8_tflops 最多为其 bf16_tflops 的 {ratio} 倍（没有 bf16_tflops 时，按其 fp16 或 fp32 数值），所有已知的 GPU 都是如此。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="118"/>
        <source>must be a whole number of tokens (at least 1) or null, not {v!r}.</source>
        <translation>必须是整数个 token（至少 1）或 null，而不是 {v!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="128"/>
        <source>must be {{&quot;measured_step_seconds&quot;: M, &quot;predicted_step_seconds&quot;: P}} with two positive numbers.</source>
        <translation>必须是 {{&quot;measured_step_seconds&quot;: M, &quot;predicted_step_seconds&quot;: P}}，两个都是正数。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="133"/>
        <source>the measured and predicted step times must each be from {low:g} to {high:g} seconds.</source>
        <translation>实测和预测的每步时间都必须在 {low:g} 到 {high:g} 秒之间。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/time_keys.py" line="137"/>
        <source>the measured step ({measured:.3g} s) is more than {limit:g} times off the predicted one ({predicted:.3g} s): it was measured on another set-up, or in other units.</source>
        <translation>实测的一步（{measured:.3g} 秒）与预测值（{predicted:.3g} 秒）相差超过 {limit:g} 倍：它是在另一套设置上测得的，或者用的是其他单位。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/exporting.py" line="167"/>
        <source>Unknown export format &apos;{fmt}&apos;. Choose one of {p}.</source>
        <translation>未知的导出格式“{fmt}”。请从 {p} 中选择。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/exporting.py" line="228"/>
        <source>accelerate&apos;s DeepSpeed settings have no shard group (MiCS, a group of {group} GPUs): export to deepspeed and give accelerate that file as deepspeed_config_file.</source>
        <translation>accelerate 的 DeepSpeed 设置没有分片组（MiCS，每组 {group} 块 GPU）：请导出为 deepspeed 格式，并在 accelerate 中把该文件设为 deepspeed_config_file。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/exporting.py" line="309"/>
        <source>LLaMA-Factory has no stage for the objective &apos;{objective}&apos;; pick sft, dpo, ipo, orpo, simpo, kto, reward or ppo, or another format.</source>
        <translation>LLaMA-Factory 没有对应训练目标“{objective}”的 stage；请选择 sft、dpo、ipo、orpo、simpo、kto、reward 或 ppo，或换用其他格式。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_native.py" line="32"/>
        <source>torchtune has no builder for the custom model &apos;{name}&apos;; pick a preset model.</source>
        <translation>torchtune 没有自定义模型“{name}”的构建函数；请选择一个预设模型。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_native.py" line="43"/>
        <source>torchtune has no builder for the model &apos;{name}&apos;.</source>
        <translation>torchtune 没有模型“{name}”的构建函数。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_native.py" line="100"/>
        <source>torchtitan has no model flavour for &apos;{name}&apos;; pick Llama 3.1 or Qwen3.</source>
        <translation>torchtitan 没有“{name}”的模型规格；请选择 Llama 3.1 或 Qwen3。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_native.py" line="271"/>
        <source>The Megatron export writes a transformer&apos;s flags, and {name} has Mamba-2 or gated DeltaNet layers: take its model flags from its Megatron-Bridge recipe and add the parallel settings.</source>
        <translation>Megatron 导出写出的是 Transformer 的参数，而 {name} 含有 Mamba-2 或门控 DeltaNet 层：请从它的 Megatron-Bridge 配方中取模型参数，再加上并行设置。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="18"/>
        <source>Matmuls and attention</source>
        <translation>矩阵乘与注意力</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="19"/>
        <source>Memory-bound operations</source>
        <translation>受显存带宽限制的运算</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="20"/>
        <source>Recomputation (checkpointing)</source>
        <translation>重计算（激活检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="21"/>
        <source>Tensor-parallel communication</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="22"/>
        <source>Context-parallel communication</source>
        <translation>上下文并行通信</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="23"/>
        <source>Expert-parallel all-to-all</source>
        <translation>专家并行 all-to-all</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="24"/>
        <source>Pipeline sends</source>
        <translation>流水线发送</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="25"/>
        <source>Data-parallel / ZeRO communication</source>
        <translation>数据并行 / ZeRO 通信</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="26"/>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="27"/>
        <source>Offload transfers and CPU optimizer</source>
        <translation>卸载传输与 CPU 优化器</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="28"/>
        <source>Optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <location filename="../../engine/timing/step_result.py" line="29"/>
        <source>Waiting for the host (kernel launches, syncs)</source>
        <translation>等待主机（内核启动、同步）</translation>
    </message>
    <message>
        <location filename="../../engine/timing/model.py" line="389"/>
        <source>{gpu} lacks some speed figures (peak FLOP/s or memory bandwidth): an H100 SXM&apos;s are used for those; enter them for a custom GPU.</source>
        <translation>{gpu} 缺少部分速度数据（峰值 FLOP/s 或显存带宽）：缺的部分按 H100 SXM 计算；自定义 GPU 请填写这些数据。</translation>
    </message>
    <message>
        <source>The step time leaves out the image encoder (vision tower): only the language model&apos;s layers are timed, over every token of the sequence, image tokens included.</source>
        <translation type="vanished">步时间未计入图像编码器（视觉塔）：只计算语言模型各层的时间，覆盖序列中的每个 token（包括图像 token）。</translation>
    </message>
    <message>
        <source>The model&apos;s own figures give MFU {mfu:.0%}, close to or above {cap:.0%} (no published run on this GPU in this format: the best on a GPU of its family, {best:.0%} in {row} on {run_gpu} carried to this GPU&apos;s rate, + {margin:.0%}): the step is stretched to MFU {held:.0%}.</source>
        <translation type="vanished">模型自身的数据给出 MFU {mfu:.0%}，接近或高于 {cap:.0%}（此 GPU 在此格式下没有已发表的运行：取同系列 GPU 上的最佳运行，{run_gpu} 上的 {row} 为 {best:.0%}，按此 GPU 的速率折算，+ {margin:.0%}）：步骤时间被拉长到 MFU {held:.0%}。</translation>
    </message>
    <message>
        <source>The model&apos;s own figures give MFU {mfu:.0%}, close to or above {cap:.0%} (the best published run on this GPU in this format, {best:.0%} in {row}, + {margin:.0%}): the step is stretched to MFU {held:.0%}.</source>
        <translation type="vanished">模型自身的数据给出 MFU {mfu:.0%}，接近或高于 {cap:.0%}（此 GPU 在此格式下已发表的最佳运行 {best:.0%}（{row}）+ {margin:.0%}）：步骤时间被拉长到 MFU {held:.0%}。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/near_capacity.py" line="70"/>
        <source>Near the memory limit ({process} of {capacity} per GPU, {share:.0%}): when an allocation fails, PyTorch&apos;s caching allocator synchronizes, frees its cached blocks and retries (torch.cuda.memory_stats num_alloc_retries), so the step may run slower than shown. BigScience measured {low:.1%} to {high:.1%} longer per token for the same layouts at 73-76 GB of 80 than at the next smaller micro-batch; the time above adds none of it. Sources: {sources}.</source>
        <translation>接近显存上限（每 GPU {process} / {capacity}，{share:.0%}）：分配失败时，PyTorch 的缓存分配器会同步设备、释放缓存的块并重试（torch.cuda.memory_stats 的 num_alloc_retries），因此这一步可能比显示的更慢。BigScience 测得同一布局在 80 GB 中用到 73-76 GB 时，每个 token 比下一个较小的微批次慢 {low:.1%} 到 {high:.1%}；上面的时间没有计入这部分。来源：{sources}。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/bounds.py" line="41"/>
        <source>Your measured step ({measured:.3g} s against {predicted:.3g} s predicted) would mean MFU {mfu:.0%}, above the GPUs&apos; peak; it is not used: measure the step of this very scenario again.</source>
        <translation>按你实测的一步（实测 {measured:.3g} 秒，预测 {predicted:.3g} 秒），MFU 将为 {mfu:.0%}，超过了 GPU 的峰值；因此不采用：请针对这个场景本身重新测量一步。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/bounds.py" line="45"/>
        <source>Times are scaled by {factor:.2f} from your measured step ({measured:.3g} s against {predicted:.3g} s predicted).</source>
        <translation>时间已按你的实测一步缩放 {factor:.2f} 倍（实测 {measured:.3g} 秒，预测 {predicted:.3g} 秒）。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/bounds.py" line="64"/>
        <source>The step time of this scenario cannot be computed ({what} is not a finite positive number); check the GPU&apos;s speed figures and the link bandwidths.</source>
        <translation>无法计算此场景的每步时间（{what} 不是有限的正数）；请检查 GPU 的速度数据和链路带宽。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_search.py" line="52"/>
        <source>changes what you train</source>
        <translation>会改变训练内容</translation>
    </message>
    <message>
        <location filename="../../engine/planning/speed_search.py" line="63"/>
        <source>The search reached its limit of {n} memory estimates: only the most promising layouts of this very large set-up were tried.</source>
        <translation>搜索已达到 {n} 次显存估算的上限：对这个规模很大的设置，只尝试了最有希望的布局。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="46"/>
        <source>Replicated embedding gradient (tensor parallel)</source>
        <translation>复制的嵌入梯度（张量并行）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="49"/>
        <source>PyTorch&apos;s Rowwise embedding: a full vocab x hidden gradient on every tp rank</source>
        <translation>PyTorch 的 Rowwise 嵌入：每个 tp rank 上都有完整的 词表 x 隐藏维 梯度</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="66"/>
        <source>Losses of micro-batches in flight (last stage)</source>
        <translation>在途微批次的损失（最后阶段）</translation>
    </message>
    <message>
        <source>(micro-batches in flight - 1) x b·s·V x 4 (fp32 log-softmax)</source>
        <translation type="vanished">（在途微批次数 - 1）x b·s·V x 4（fp32 log-softmax）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="69"/>
        <source>(micro-batches in flight - 1) x what one loss saves for its backward (the fp32 log-softmax b·s·V x 4 with the standard loss)</source>
        <translation>（在途微批次数 - 1）x 一个损失为反向传播保存的张量（标准损失为 fp32 log-softmax，b·s·V x 4）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="84"/>
        <source>Pipeline receive buffers and kept outputs</source>
        <translation>流水线接收缓冲区和保留的输出</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="87"/>
        <source>one activation and one gradient receive buffer per micro-batch (b·s·h); the last stage keeps every micro-batch&apos;s logits returned by the schedule, or, when the schedule does not return them (torchtitan), the logits of the micro-batches in flight until their backward</source>
        <translation>每个微批次一个激活接收缓冲区和一个梯度接收缓冲区（b·s·h）；最后阶段保留调度器返回的每个微批次的 logits，若调度器不返回它们（torchtitan），则保留尚在进行中的微批次的 logits，直到其反向传播</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="92"/>
        <source>DeepSpeed&apos;s pipeline engine: one activation and one gradient receive buffer (b·s·h), allocated once and reused by every micro-batch; the last stage keeps the logits of the micro-batch in flight until its backward</source>
        <translation>DeepSpeed 的流水线引擎：一个激活接收缓冲区和一个梯度接收缓冲区（b·s·h），只分配一次，所有微批次复用；最后一个阶段保留正在处理的微批次的 logits，直到其反向传播</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="120"/>
        <source>Pipeline gradient receive buffer</source>
        <translation>流水线梯度接收缓冲区</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="123"/>
        <source>Megatron: the gradient of one micro-batch&apos;s stage output (b·s·h), received for its backward; activations are received as the stage&apos;s saved input and outputs are freed once sent</source>
        <translation>Megatron：一个微批次阶段输出的梯度（b·s·h），为其反向传播而接收；激活值作为该阶段保存的输入接收，输出发送后即释放</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="146"/>
        <source>Sent stage outputs kept until backward</source>
        <translation>已发送的流水线阶段输出（保留到反向传播）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="149"/>
        <source>Megatron-LM of 2021: each micro-batch&apos;s stage output (b·s·h) stays in output_tensors after it is sent, until its backward</source>
        <translation>2021 年的 Megatron-LM：每个微批次的阶段输出（b·s·h）发送后仍留在 output_tensors 中，直到其反向传播</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="204"/>
        <source>FSDP2 gathered parameters and gradient buffers</source>
        <translation>FSDP2 聚合的参数和梯度缓冲区</translation>
    </message>
    <message>
        <location filename="../../engine/memory/parallelism/components.py" line="207"/>
        <source>root unit (embeddings, norm, lm_head) unsharded all step + one layer gathered (two in backward, all without reshard after forward) + a layer&apos;s gradients and reduce-scatter buffer</source>
        <translation>根单元（嵌入、归一化、lm_head）整步不分片 + 一层聚合（反向时两层；前向后不重新分片时为全部层）+ 一层的梯度和 reduce-scatter 缓冲区</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="73"/>
        <source>{name} cannot be opened: {why}.</source>
        <translation>无法打开 {name}：{why}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="78"/>
        <source>{name} is not a regular file.</source>
        <translation>{name} 不是普通文件。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="83"/>
        <source>{name} is too short to be a safetensors file.</source>
        <translation>{name} 太短，不可能是 safetensors 文件。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="86"/>
        <source>{name} declares a {n}-byte header, more than the {limit} bytes safetensors allows.</source>
        <translation>{name} 声明的文件头为 {n} 字节，超过 safetensors 允许的 {limit} 字节。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="90"/>
        <source>{name} declares a header longer than the file: it is truncated or not safetensors.</source>
        <translation>{name} 声明的文件头比文件本身还长：文件被截断或不是 safetensors。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="95"/>
        <location filename="../../engine/models/local/safetensors_header.py" line="120"/>
        <source>{name} lists more than {limit} tensors, more than any released checkpoint file holds.</source>
        <translation>{name} 列出了超过 {limit} 个张量，比任何已发布的检查点文件都多。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="101"/>
        <source>{name} has a header that is not JSON text.</source>
        <translation>{name} 的文件头不是 JSON 文本。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="118"/>
        <source>{name} has a header that is not a JSON object.</source>
        <translation>{name} 的文件头不是 JSON 对象。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="125"/>
        <source>{name} has __metadata__ that is not text keys and values.</source>
        <translation>{name} 的 __metadata__ 不是文本键值。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="133"/>
        <source>{name}: the entry of tensor &apos;{tensor}&apos; is malformed.</source>
        <translation>{name}：张量“{tensor}”的条目格式错误。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="138"/>
        <source>{name}: tensor &apos;{tensor}&apos; points outside the file or does not match its dtype and shape.</source>
        <translation>{name}：张量“{tensor}”指向文件之外，或与其数据类型和形状不符。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/safetensors_header.py" line="146"/>
        <source>{name} has tensors that overlap: it is not a valid file.</source>
        <translation>{name} 中的张量相互重叠：不是有效文件。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/accelerate.py" line="39"/>
        <source>no num_machines: one machine</source>
        <translation>未给出 num_machines：一台机器</translation>
    </message>
    <message>
        <location filename="../../engine/configs/accelerate.py" line="45"/>
        <source>unknown mixed precision {mp!r}</source>
        <translation>未知的混合精度 {mp!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/accelerate.py" line="62"/>
        <source>distributed_type {dist}: plain data parallel (DDP), nothing sharded</source>
        <translation>distributed_type {dist}：普通数据并行（DDP），不分片</translation>
    </message>
    <message>
        <location filename="../../engine/configs/accelerate.py" line="113"/>
        <source>affects model loading, not the training step (load phase not modelled yet)</source>
        <translation>影响模型加载，而不是训练步骤（加载阶段尚未建模）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/accelerate.py" line="149"/>
        <source>unknown sharding strategy {strategy!r}</source>
        <translation>未知的分片策略 {strategy!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/accelerate.py" line="156"/>
        <source>no sharding strategy given: FSDP&apos;s default FULL_SHARD</source>
        <translation>未给出分片策略：FSDP 默认 FULL_SHARD</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="54"/>
        <source>axolotl&apos;s default micro_batch_size 1</source>
        <translation>axolotl 默认 micro_batch_size 为 1</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="60"/>
        <source>axolotl&apos;s default sequence_len 2048</source>
        <translation>axolotl 默认 sequence_len 为 2048</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="77"/>
        <source>load_in_8bit is bitsandbytes&apos; LLM.int8 (Linear8bitLt): one scale per row, no double quantisation (bnb_4bit_use_double_quant is a 4-bit option)</source>
        <translation>load_in_8bit 是 bitsandbytes 的 LLM.int8（Linear8bitLt）：每行一个缩放系数，没有双重量化（bnb_4bit_use_double_quant 是 4 bit 的选项）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="87"/>
        <source>adapter &apos;{adapter}&apos; is not modelled yet</source>
        <translation>适配器“{adapter}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="113"/>
        <source>bf16: auto is bf16 on a GPU that supports it</source>
        <translation>bf16: auto 在支持的 GPU 上即为 bf16</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="138"/>
        <source>optimizer &apos;{opt}&apos; is not modelled yet</source>
        <translation>优化器“{opt}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="143"/>
        <source>axolotl leaves the optimizer to TrainingArguments (AdamW)</source>
        <translation>axolotl 将优化器交给 TrainingArguments（AdamW）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="205"/>
        <source>dp_shard_size x dp_replicate_size x tensor x context parallel sizes: the GPUs axolotl&apos;s parallelism config is built for</source>
        <translation>dp_shard_size × dp_replicate_size × 张量并行 × 上下文并行规模：axolotl 的并行配置所对应的 GPU 数</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="281"/>
        <source>attention kernel &apos;{attn}&apos; is not modelled yet</source>
        <translation>注意力内核“{attn}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/axolotl.py" line="221"/>
        <source>ALST&apos;s tiled MLP runs the MLP in sequence tiles, so its recomputation in backward holds one tile&apos;s intermediates: not modelled yet (the estimate counts the whole sequence&apos;s, an upper bound)</source>
        <translation>ALST 的分块 MLP 按序列分块运行 MLP，反向重算时只保留一块的中间结果：尚未建模（估算按整条序列计算，是上界）</translation>
    </message>
    <message>
        <source>packing fills each sequence to sequence_len: the planner already counts full sequences</source>
        <translation type="vanished">打包会把每条序列填满到 sequence_len：规划器本就按满长序列计算</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="74"/>
        <location filename="../../engine/configs/torchtune.py" line="231"/>
        <source>does not affect GPU memory</source>
        <translation>不影响 GPU 显存</translation>
    </message>
    <message>
        <source>not read by the planner (not a memory setting it models)</source>
        <translation type="vanished">规划器不读取（不是它建模的显存设置）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="133"/>
        <source>expected a whole number ≥ {minimum}, found {value!r}</source>
        <translation>应为 ≥ {minimum} 的整数，实际为 {value!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="156"/>
        <source>no model named ({name!r})</source>
        <translation>未指明模型（{name!r}）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="164"/>
        <source>model &apos;{name}&apos; is not a preset; pick the model in the planner</source>
        <translation>模型“{name}”不是预设；请在规划器中选择模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="196"/>
        <source>&apos;{name}&apos; read from its config.json in the local model cache</source>
        <translation>“{name}”取自本地模型缓存中的 config.json</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="408"/>
        <source>a projector trained beside a frozen vision tower is not modelled apart: both are counted frozen</source>
        <translation>视觉塔冻结而单独训练投影层的情况未单独建模：两者都按冻结计算</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="173"/>
        <source>&apos;{name}&apos; taken as preset {preset} (a variant with the same architecture)</source>
        <translation>“{name}”按预设 {preset} 处理（同一架构的变体）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="88"/>
        <source>not read by the planner</source>
        <translation>规划器不读取</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="247"/>
        <source>{name} keeps its fp32 states in unified memory that bitsandbytes pages to CPU memory when the GPU runs short; the planner has no paged 32-bit AdamW and counts the states on the GPU, an upper bound</source>
        <translation>{name} 把 fp32 优化器状态放在统一内存中，GPU 显存不足时 bitsandbytes 会将其换页到 CPU 内存；规划器没有分页的 32 位 AdamW，按状态全部驻留 GPU 计算，为上限估计</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="267"/>
        <location filename="../../engine/configs/verl.py" line="148"/>
        <source>optimizer &apos;{optim}&apos; is not modelled yet</source>
        <translation>优化器“{optim}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="330"/>
        <source>TRL&apos;s ModelConfig use_bnb_nested_quant defaults to false: no double quantisation</source>
        <translation>TRL 的 ModelConfig 中 use_bnb_nested_quant 默认为 false：不做双重量化</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="360"/>
        <source>expected layer indices, found {value!r}</source>
        <translation>应为层序号，实际为 {value!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="390"/>
        <source>unrecognised FSDP setting {value!r}</source>
        <translation>无法识别的 FSDP 设置 {value!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="133"/>
        <source>&quot;auto&quot;: the HF Trainer fills it from per_device_train_batch_size (default 8)</source>
        <translation>&quot;auto&quot;：HF Trainer 用 per_device_train_batch_size 填充（默认 8）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="145"/>
        <source>&quot;auto&quot;: the HF Trainer fills it from gradient_accumulation_steps (default 1)</source>
        <translation>&quot;auto&quot;：HF Trainer 用 gradient_accumulation_steps 填充（默认 1）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="171"/>
        <source>ZeRO stage must be 0-3, found {stage!r}</source>
        <translation>ZeRO 阶段必须为 0-3，实际为 {stage!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="198"/>
        <source>parameters offloaded without the optimizer state: the planner offloads both</source>
        <translation>只卸载参数而不卸载优化器状态：规划器会同时卸载两者</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="211"/>
        <source>no offload_optimizer / offload_param section: nothing offloaded</source>
        <translation>没有 offload_optimizer / offload_param 部分：不卸载</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="187"/>
        <source>DeepSpeed offloads to none, cpu or nvme and refuses {device}: read as no offload</source>
        <translation>DeepSpeed 只能卸载到 none、cpu 或 nvme，不接受 {device}：按不卸载读取</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="218"/>
        <source>NVMe offload is counted as CPU offload (both leave the GPU)</source>
        <translation>NVMe 卸载按 CPU 卸载计算（两者都离开 GPU）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="100"/>
        <source>no zero_optimization section: DeepSpeed&apos;s default stage 0</source>
        <translation>没有 zero_optimization 部分：DeepSpeed 默认阶段 0</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="239"/>
        <source>&quot;auto&quot;: the HF Trainer enables bf16/fp16 from its bf16/fp16 arguments (default off)</source>
        <translation>&quot;auto&quot;：HF Trainer 根据其 bf16/fp16 参数启用（默认关闭）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="271"/>
        <source>optimizer &apos;{type}&apos; is not modelled yet</source>
        <translation>优化器“{type}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="111"/>
        <location filename="../../engine/configs/llamafactory.py" line="146"/>
        <source>not modelled yet</source>
        <translation>尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="116"/>
        <source>a comment</source>
        <translation>注释</translation>
    </message>
    <message>
        <location filename="../../engine/configs/hf.py" line="35"/>
        <source>TrainingArguments&apos; default per_device_train_batch_size 8</source>
        <translation>TrainingArguments 默认 per_device_train_batch_size 为 8</translation>
    </message>
    <message>
        <location filename="../../engine/configs/hf.py" line="41"/>
        <source>TrainingArguments&apos; default gradient_checkpointing false</source>
        <translation>TrainingArguments 默认 gradient_checkpointing 为 false</translation>
    </message>
    <message>
        <location filename="../../engine/configs/hf.py" line="47"/>
        <source>TRL SFTConfig&apos;s default max_length 1024 (not set in the file)</source>
        <translation>TRL SFTConfig 默认 max_length 为 1024（文件中未设置）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/hf.py" line="53"/>
        <source>TrainingArguments&apos; default: no bf16/fp16, fp32 weights</source>
        <translation>TrainingArguments 默认：不启用 bf16/fp16，权重为 fp32</translation>
    </message>
    <message>
        <location filename="../../engine/configs/deepspeed.py" line="255"/>
        <location filename="../../engine/configs/hf.py" line="57"/>
        <source>TrainingArguments&apos; default optim (PyTorch AdamW)</source>
        <translation>TrainingArguments 默认 optim（PyTorch AdamW）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="45"/>
        <source>LLaMA-Factory&apos;s default finetuning_type is lora</source>
        <translation>LLaMA-Factory 默认 finetuning_type 为 lora</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="56"/>
        <source>finetuning type &apos;{ft}&apos; is not modelled yet</source>
        <translation>微调类型“{ft}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="61"/>
        <source>LLaMA-Factory&apos;s default lora_rank 8</source>
        <translation>LLaMA-Factory 默认 lora_rank 为 8</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="68"/>
        <source>LLaMA-Factory&apos;s default lora_target all</source>
        <translation>LLaMA-Factory 默认 lora_target 为 all</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="79"/>
        <source>LLaMA-Factory&apos;s default cutoff_len 2048</source>
        <translation>LLaMA-Factory 默认 cutoff_len 为 2048</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="95"/>
        <source>LLaMA-Factory keeps LoRA adapters in fp32 unless pure_bf16</source>
        <translation>除非设置 pure_bf16，LLaMA-Factory 将 LoRA 适配器保持为 fp32</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="104"/>
        <source>LLaMA-Factory enables gradient checkpointing unless disable_gradient_checkpointing is set</source>
        <translation>除非设置 disable_gradient_checkpointing，LLaMA-Factory 会启用梯度检查点</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="121"/>
        <source>FP8 backend &apos;{backend}&apos; is not modelled; the estimate keeps bf16</source>
        <translation>FP8 后端 &apos;{backend}&apos; 尚未建模；估算保持 bf16</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="127"/>
        <source>LLaMA-Factory&apos;s default fp8_backend auto: torchao&apos;s rowwise float8 recipe</source>
        <translation>LLaMA-Factory 默认 fp8_backend auto：torchao 的 rowwise float8 方案</translation>
    </message>
    <message>
        <location filename="../../engine/configs/llamafactory.py" line="174"/>
        <source>expected a non-zero whole number, found {n!r}</source>
        <translation>应为非零整数，实际为 {n!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="121"/>
        <source>Megatron runs 1F1B without virtual pipeline stages</source>
        <translation>没有虚拟流水线阶段时，Megatron 使用 1F1B</translation>
    </message>
    <message>
        <source>TP x PP x CP = {par} GPUs, more than the script&apos;s {world}: {nodes} nodes of {per_node}</source>
        <translation type="vanished">TP × PP × CP = {par} 块 GPU，多于脚本中的 {world} 块：按 {nodes} 个节点、每节点 {per_node} 块计算</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="50"/>
        <source>Megatron-LM runs its unfused vocab-parallel loss unless --cross-entropy-loss-fusion is given (megatron/core/model_parallel_config.py: cross_entropy_loss_fusion defaults to False)</source>
        <translation>除非传入 --cross-entropy-loss-fusion，Megatron-LM 运行未融合的词表并行损失（megatron/core/model_parallel_config.py：cross_entropy_loss_fusion 默认为 False）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="75"/>
        <source>Megatron&apos;s default --optimizer adam is fused: megatron/core/optimizer/__init__.py imports Transformer Engine&apos;s (or Apex&apos;s) FusedAdam as Adam</source>
        <translation>Megatron 默认的 --optimizer adam 是融合实现：megatron/core/optimizer/__init__.py 把 Transformer Engine（或 Apex）的 FusedAdam 作为 Adam 导入</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="129"/>
        <source>Megatron switches sequence parallelism off at tensor-parallel size 1 (megatron/training/arguments.py validate_args), so it stays off</source>
        <translation>张量并行规模为 1 时 Megatron 会关闭序列并行（megatron/training/arguments.py validate_args），因此保持关闭</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="167"/>
        <source>{value} does not split into whole virtual stages on each of the {pp} pipeline ranks</source>
        <translation>{value} 无法在 {pp} 个流水线 rank 上各分成整数个虚拟阶段</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="186"/>
        <source>sharding strategy {strategy!r}: nothing sharded beyond plain data parallelism</source>
        <translation>分片策略 {strategy!r}：除普通数据并行外不做任何分片</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="212"/>
        <source>TP x PP x CP (x EP) = {par:,} GPUs, more than the script&apos;s {world:,}: {nodes} nodes of {per_node}</source>
        <translation>TP × PP × CP（× EP）= {par:,} 张 GPU，多于脚本中的 {world:,} 张：{nodes} 个节点，每个 {per_node} 张</translation>
    </message>
    <message>
        <source>TP x PP x CP (x EP) = {par} GPUs, more than the script&apos;s {world}: {nodes} nodes of {per_node}</source>
        <translation type="vanished">TP × PP × CP（× EP）= {par} 张 GPU，多于脚本中的 {world} 张：{nodes} 个节点，每个 {per_node} 张</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="234"/>
        <source>{gbs} is not a multiple of micro-batch x data-parallel size {mbs_dp}</source>
        <translation>{gbs} 不是微批次 × 数据并行规模 {mbs_dp} 的整数倍</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="251"/>
        <source>{n} optimizer instances do not divide the {ranks} data-parallel x context-parallel ranks</source>
        <translation>{n} 个优化器实例不能整除 {ranks} 个数据并行 × 上下文并行进程</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="272"/>
        <source>neither --bf16 nor --fp16: Megatron trains in fp32</source>
        <translation>既无 --bf16 也无 --fp16：Megatron 以 fp32 训练</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="297"/>
        <source>no --recompute-granularity: Megatron keeps all activations</source>
        <translation>没有 --recompute-granularity：Megatron 保留全部激活值</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron.py" line="346"/>
        <source>no --moe-grouped-gemm: Megatron-LM&apos;s default runs the experts one after another (SequentialMLP; megatron/training/arguments.py, store_true)</source>
        <translation>未设置 --moe-grouped-gemm：Megatron-LM 默认逐个运行专家（SequentialMLP；megatron/training/arguments.py，store_true）</translation>
    </message>
    <message>
        <source>Megatron&apos;s fused vocab-parallel cross-entropy is not modelled yet</source>
        <translation type="vanished">Megatron 的融合词表并行交叉熵尚未建模</translation>
    </message>
    <message>
        <source>Megatron&apos;s default --optimizer adam (AdamW with --weight-decay)</source>
        <translation type="vanished">Megatron 默认 --optimizer adam（带 --weight-decay 的 AdamW）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="105"/>
        <source>the model&apos;s shape (--num-layers, --hidden-size, --num-attention-heads) is incomplete</source>
        <translation>模型形状（--num-layers、--hidden-size、--num-attention-heads）不完整</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="67"/>
        <source>a GPT-style model (LayerNorm, GELU MLP) is not modelled; pick the model in the planner</source>
        <translation>GPT 式模型（LayerNorm、GELU MLP）尚未建模；请在规划器中选择模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="92"/>
        <source>a SwiGLU model with LayerNorm: read as Llama&apos;s shape with RMSNorm (one bias of the model&apos;s width less per norm, the same saved input)</source>
        <translation>使用 LayerNorm 的 SwiGLU 模型：按 Llama 的结构（RMSNorm）读取（每个归一化层少一个模型宽度的偏置，保存的输入相同）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="108"/>
        <source>{flag} {value!r} is not a whole number of at least 1, so the model&apos;s shape is not read; pick the model in the planner</source>
        <translation>{flag} {value!r} 不是不小于 1 的整数，因此不读取模型形状；请在规划器中选择模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="125"/>
        <source>the script&apos;s shape (layers, widths, heads, vocabulary) is {name}&apos;s</source>
        <translation>脚本的结构（层数、宽度、注意力头、词表）与 {name} 相同</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="128"/>
        <source>the script&apos;s shape (layers, widths, heads, vocabulary) is {name}&apos;s; its norm is LayerNorm ({flag}) where {name} has RMSNorm: one bias of the model&apos;s width more per norm, the same saved input</source>
        <translation>脚本的结构（层数、宽度、注意力头、词表）与 {name} 相同；其归一化为 LayerNorm（{flag}），而 {name} 使用 RMSNorm：每个归一化层多一个模型宽度的偏置，保存的输入相同</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="76"/>
        <source>the vocabulary size is unknown (no --vocab-size); pick the model in the planner</source>
        <translation>词表大小未知（没有 --vocab-size）；请在规划器中选择模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/swift.py" line="76"/>
        <source>ms-swift turns gradient_checkpointing on by default</source>
        <translation>ms-swift 默认开启 gradient_checkpointing</translation>
    </message>
    <message>
        <location filename="../../engine/configs/swift.py" line="95"/>
        <source>ms-swift&apos;s default tuner_type lora</source>
        <translation>ms-swift 默认 tuner_type 为 lora</translation>
    </message>
    <message>
        <location filename="../../engine/configs/swift.py" line="106"/>
        <location filename="../../engine/configs/swift_megatron.py" line="171"/>
        <source>tuner &apos;{tuner}&apos; is not modelled yet</source>
        <translation>微调方式“{tuner}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/swift.py" line="110"/>
        <source>ms-swift&apos;s default lora_rank 8</source>
        <translation>ms-swift 默认 lora_rank 为 8</translation>
    </message>
    <message>
        <location filename="../../engine/configs/swift.py" line="115"/>
        <source>ms-swift&apos;s default target_modules all-linear</source>
        <translation>ms-swift 默认 target_modules 为 all-linear</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="65"/>
        <source>torchtitan model {name} {flavor} is not a preset; pick the model in the planner</source>
        <translation>torchtitan 模型 {name} {flavor} 不是预设；请在规划器中选择模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="90"/>
        <source>torchtitan keeps fp32 sharded parameters and computes in {mp} (mixed_precision_param)</source>
        <translation>torchtitan 保留 fp32 分片参数，并以 {mp} 计算（mixed_precision_param）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="136"/>
        <source>data_parallel_shard_degree -1 takes the GPUs torchrun starts (not in the file): shard over as many as the planner is given</source>
        <translation>data_parallel_shard_degree -1 表示使用 torchrun 启动的全部 GPU（文件中未给出）：按规划器中设置的 GPU 数分片</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf.py" line="157"/>
        <location filename="../../engine/configs/torchtitan.py" line="152"/>
        <source>the data-parallel size is not in the file, so the accumulation steps are unknown</source>
        <translation>文件中没有数据并行规模，因此无法得知梯度累积步数</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="172"/>
        <source>schedule {sched} is not modelled yet</source>
        <translation>调度方式 {sched} 尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="181"/>
        <source>&quot;default&quot;: reshards except on the last stage</source>
        <translation>&quot;default&quot;：除最后一个阶段外都重新分片</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="190"/>
        <source>torchtitan&apos;s tensor parallelism is always sequence-parallel (apply_tp in torchtitan/models/llama3/infra/parallelize.py: SequenceParallel norms, Shard(1) block inputs)</source>
        <translation>torchtitan 的张量并行总是带序列并行（torchtitan/models/llama3/infra/parallelize.py 中的 apply_tp：SequenceParallel 归一化层，Shard(1) 的块输入）</translation>
    </message>
    <message>
        <source>checkpointing every N-th layer is not modelled yet</source>
        <translation type="vanished">每隔 N 层做检查点尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="209"/>
        <source>unknown mode {mode!r}</source>
        <translation>未知模式 {mode!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="223"/>
        <source>checkpointing every N-th layer needs the model&apos;s layer count</source>
        <translation>每第 N 层检查点需要知道模型的层数</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="244"/>
        <source>optimizer {name} is not modelled yet</source>
        <translation>优化器 {name} 尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtitan.py" line="50"/>
        <source>torchtitan&apos;s attention uses scaled_dot_product_attention</source>
        <translation>torchtitan 的注意力使用 scaled_dot_product_attention</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="85"/>
        <source>unknown dtype {dtype!r}</source>
        <translation>未知的数据类型 {dtype!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="87"/>
        <source>torchtune recipes default to dtype bf16</source>
        <translation>torchtune 配方默认 dtype 为 bf16</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="105"/>
        <source>null: the length of the longest sample; set seq_len in the planner</source>
        <translation>null：取最长样本的长度；请在规划器中设置序列长度</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="121"/>
        <source>optimizer {comp} is not modelled yet</source>
        <translation>优化器 {comp} 尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="132"/>
        <source>loss {_component} is not modelled yet</source>
        <translation>损失函数 {_component} 尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="146"/>
        <source>the GPU count is given to `tune run --nproc_per_node`, not in the recipe: at least the tensor-parallel degree</source>
        <translation>GPU 数量由 `tune run --nproc_per_node` 给出，不在配方中：至少为张量并行度</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="158"/>
        <source>sharding of embeddings and output apart is not modelled yet</source>
        <translation>嵌入层和输出层单独分片尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="171"/>
        <source>DoRA ({comp}) is not modelled yet</source>
        <translation>DoRA（{comp}）尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="180"/>
        <source>model builder {comp} is not a preset; pick the model in the planner</source>
        <translation>模型构建函数 {comp} 不是预设；请在规划器中选择模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="189"/>
        <source>torchtune builds the model, LoRA adapters included, under training.set_default_dtype(dtype) (recipes/lora_finetune_*.py _setup_model): the adapters are in the model dtype</source>
        <translation>torchtune 在 training.set_default_dtype(dtype) 下构建模型（包括 LoRA 适配器）（recipes/lora_finetune_*.py 的 _setup_model）：适配器使用模型的数据类型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="197"/>
        <source>torchtune QLoRA quantises base weights to NF4</source>
        <translation>torchtune QLoRA 将基础权重量化为 NF4</translation>
    </message>
    <message>
        <location filename="../../engine/configs/torchtune.py" line="202"/>
        <source>torchtune&apos;s NF4Tensor (torchao) keeps per-block scales quantised once, with no second-level quantisation of the constants</source>
        <translation>torchtune 的 NF4Tensor（torchao）对每块缩放系数只量化一次，不对常数做二次量化</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="256"/>
        <source>Logits kept by the training loop</source>
        <translation>训练循环保留的 logits</translation>
    </message>
    <message>
        <location filename="../../engine/memory/detailed.py" line="259"/>
        <source>the loop&apos;s logits variable holds b·s·V (fp32 after Fabric&apos;s output cast) through backward and the optimizer step, until the next forward returns</source>
        <translation>训练循环的 logits 变量在反向传播和优化器步骤期间一直持有 b·s·V（经 Fabric 输出转换后为 fp32），直到下一次前向返回</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="198"/>
        <source>ZeRO-3 gradient bucket</source>
        <translation>ZeRO-3 梯度桶</translation>
    </message>
    <message>
        <location filename="../../engine/memory/stage_states.py" line="200"/>
        <source>reduce_bucket_size elements x gradient bytes, allocated once (DeepSpeed contiguous_gradients)</source>
        <translation>reduce_bucket_size 个元素 x 梯度字节数，只分配一次（DeepSpeed contiguous_gradients）</translation>
    </message>
    <message>
        <location filename="../../engine/models/gelu_families.py" line="25"/>
        <source>n_heads ({heads}) is not a multiple of kv_n_heads ({kv_heads}).</source>
        <translation>n_heads（{heads}）不是 kv_n_heads（{kv_heads}）的整数倍。</translation>
    </message>
    <message>
        <location filename="../../engine/models/gelu_families.py" line="29"/>
        <source>d_model ({hidden}) is not a multiple of n_heads ({heads}).</source>
        <translation>d_model（{hidden}）不是 n_heads（{heads}）的整数倍。</translation>
    </message>
    <message>
        <location filename="../../engine/models/gelu_families.py" line="33"/>
        <source>config.json &apos;expansion_ratio&apos; must be a number above 0 and at most 64, not {value!r}.</source>
        <translation>config.json 的 &apos;expansion_ratio&apos; 必须大于 0 且不超过 64，而不是 {value!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/gelu_families.py" line="85"/>
        <source>n_embd ({hidden}) is not a multiple of n_head ({heads}).</source>
        <translation>n_embd（{hidden}）不是 n_head（{heads}）的整数倍。</translation>
    </message>
    <message>
        <location filename="../local_models.py" line="149"/>
        <source>The models on this computer could not be listed ({why}).</source>
        <translation>无法列出本机上的模型（{why}）。</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="98"/>
        <source>detailed</source>
        <translation>逐算子模型，detailed</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="98"/>
        <source>seed-per-op</source>
        <translation>逐层教科书公式，seed-per-op</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="99"/>
        <source>seed-k-factor</source>
        <translation>经验法则，seed-k-factor</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="99"/>
        <source>seed-alpha</source>
        <translation>激活公式 α，seed-alpha</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="100"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../engine/estimate_output.py" line="191"/>
        <source>This scenario gives a figure that is not a finite number, so no JSON is printed; please report it.</source>
        <translation>此场景得出的某个数值不是有限数，因此不输出 JSON；请报告此问题。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="100"/>
        <source>{name} is a symbolic link; it is neither followed nor replaced, so nothing was written. Give the path of a file.</source>
        <translation>{name} 是符号链接；既不会跟随它，也不会替换它，因此没有写入任何内容。请给出一个文件的路径。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="103"/>
        <source>{name} is a folder; give the path of a file inside it. Nothing was written.</source>
        <translation>{name} 是文件夹；请给出其中某个文件的路径。没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="105"/>
        <source>{name} is a pipe, a device or a socket, not a regular file; it was not opened and nothing was written.</source>
        <translation>{name} 是管道、设备或套接字，不是普通文件；没有打开它，也没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="114"/>
        <source>The folder {folder} does not exist; create it first. Nothing was written.</source>
        <translation>文件夹 {folder} 不存在；请先创建它。没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="117"/>
        <source>{folder} is not a folder, so {name} cannot be written in it. Nothing was written.</source>
        <translation>{folder} 不是文件夹，因此无法在其中写入 {name}。没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="128"/>
        <source>{name} is the file being exported; choose another name. Nothing was written.</source>
        <translation>{name} 就是被导出的文件本身；请另选一个名称。没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="131"/>
        <location filename="../../engine/safe_write.py" line="150"/>
        <source>{name} already exists; add --force to replace it. Nothing was written.</source>
        <translation>{name} 已存在；如要替换，请加上 --force。没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="141"/>
        <source>No output file was named; nothing was written.</source>
        <translation>没有指定输出文件；没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="143"/>
        <source>A file name cannot hold a NUL character; nothing was written.</source>
        <translation>文件名中不能含有 NUL 字符；没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../engine/safe_write.py" line="154"/>
        <source>{name} could not be written ({reason}); nothing was changed.</source>
        <translation>无法写入 {name}（{reason}）；没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/shell.py" line="54"/>
        <source>{name} expands its variables to more than {n:,} characters; a launch script does not, so it is not imported.</source>
        <translation>{name} 展开变量后超过 {n:,} 个字符；启动脚本不会这样，因此不予导入。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/hf_cache.py" line="126"/>
        <source>The Hugging Face cache {name} cannot be read ({why}); its models are not listed.</source>
        <translation>无法读取 Hugging Face 缓存 {name}（{why}）；其中的模型不会列出。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/hf_cache.py" line="131"/>
        <source>The Hugging Face cache holds {n} models; only the first {limit} (by name) are listed.</source>
        <translation>Hugging Face 缓存中有 {n} 个模型；只列出（按名称排序的）前 {limit} 个。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/hf_cache.py" line="138"/>
        <source>{name} in the Hugging Face cache cannot be read ({why}); it is skipped.</source>
        <translation>无法读取 Hugging Face 缓存中的 {name}（{why}）；已跳过。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/hf_cache.py" line="150"/>
        <source>{name} holds more folders than one scan looks into; only the first {limit} were looked into (add the model folders you use directly).</source>
        <translation>{name} 中的文件夹数量超过了一次扫描查看的上限；只查看了前 {limit} 个（请直接添加你使用的模型文件夹）。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/hf_cache.py" line="170"/>
        <location filename="../../engine/models/local/hf_cache.py" line="210"/>
        <source>Your model folder {name} cannot be read ({why}); it is skipped.</source>
        <translation>无法读取你的模型文件夹 {name}（{why}）；已跳过。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/hf_cache.py" line="183"/>
        <source>{name} in your model folder cannot be read ({why}); it is skipped.</source>
        <translation>无法读取你的模型文件夹中的 {name}（{why}）；已跳过。</translation>
    </message>
    <message>
        <location filename="../../engine/models/local/hf_cache.py" line="221"/>
        <source>{n} models were found on this computer; only the first {limit} are listed.</source>
        <translation>在本机上找到了 {n} 个模型；只列出前 {limit} 个。</translation>
    </message>
    <message>
        <source>MFU = model FLOPs per second / (GPUs x dense peak of the compute format; bf16 for fp8). Model FLOPs per token = 6 x (active parameters without the input embedding) + 12 x layers x attention width x sequence length (causal masking and recomputation not discounted or added), as Megatron-LM, torchtitan and llm-foundry count them; frozen weights (LoRA, QLoRA, frozen layers) count no weight gradient (2 of the 6), and layers no gradient flows through count no backward at all.</source>
        <translation type="vanished">MFU = 每秒模型 FLOPs /（GPU 数 × 计算格式的稠密峰值；fp8 按 bf16 计）。每个 token 的模型 FLOPs = 6 ×（不含输入嵌入的激活参数）+ 12 × 层数 × 注意力宽度 × 序列长度（不扣除因果掩码，也不加重计算），与 Megatron-LM、torchtitan 和 llm-foundry 的算法一致；冻结的权重（LoRA、QLoRA、冻结的层）不计权重梯度（6 中的 2），没有梯度流过的层完全不计反向。</translation>
    </message>
    <message>
        <source>over by {over} per GPU, and the CPU memory does not hold it either: needs {need} per node, {capacity} set</source>
        <translation type="vanished">每块 GPU 超出 {over}，CPU 内存也放不下：每节点需要 {need}，已设定 {capacity}</translation>
    </message>
    <message>
        <source>the CPU memory does not hold it: needs {need} per node, {capacity} set</source>
        <translation type="vanished">CPU 内存放不下：每节点需要 {need}，已设定 {capacity}</translation>
    </message>
    <message>
        <location filename="../../engine/memory/verdict_words.py" line="55"/>
        <source>CPU memory not checked (not set): needs {need} per node</source>
        <translation>未检查 CPU 内存（未设置）：每节点需要 {need}</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="138"/>
        <source>Fits on {machines} with {free} spare per GPU.</source>
        <translation>在 {machines} 上放得下，每块 GPU 还剩 {free}。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="148"/>
        <source>Fits on {machines} only by using part of the safety reserve.</source>
        <translation>在 {machines} 上放得下，但要占用部分安全余量。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="144"/>
        <source>Fits on {machines} only if the generation engine starts: its KV cache is within the start-up accounting&apos;s uncertainty.</source>
        <translation>只有生成引擎能启动时才能在 {machines} 上放下：其 KV 缓存在启动显存核算的误差范围内。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="129"/>
        <source>{training} × {gpu} training and {engine} × {gpu} running the generation engine</source>
        <translation>{training} × {gpu}（训练）和 {engine} × {gpu}（运行生成引擎）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="141"/>
        <source>Starts on {machines}, but not for every user at once: {why}</source>
        <translation>可在 {machines} 上启动，但无法同时服务所有用户：{why}</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="151"/>
        <source>Does not fit on {machines}: {over} over per GPU.</source>
        <translation>在 {machines} 上放不下：每块 GPU 超出 {over}。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="169"/>
        <source>Needs {host} CPU memory per node, more than the {cap} it has.</source>
        <translation>每个节点需要 {host} CPU 内存，超过了它拥有的 {cap}。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="171"/>
        <source>Needs {host} CPU memory per node.</source>
        <translation>每个节点需要 {host} CPU 内存。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="211"/>
        <source>Main risk: it does not fit in GPU memory as set up.</source>
        <translation>主要风险：按当前设置，GPU 显存放不下。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="213"/>
        <source>Main risk: CPU memory runs out.</source>
        <translation>主要风险：CPU 内存不够。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="217"/>
        <source>Main risk: no headroom beyond the safety reserve.</source>
        <translation>主要风险：除安全余量外没有余地。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="219"/>
        <source>Main risk: offload speed (copies to CPU memory can make each step several times slower).</source>
        <translation>主要风险：卸载速度（与 CPU 内存之间的拷贝可能让每步慢好几倍）。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="222"/>
        <source>Main risk: little headroom ({free} per GPU).</source>
        <translation>主要风险：余量很小（每块 GPU {free}）。</translation>
    </message>
    <message>
        <source>Main risk: none stands out; the estimate&apos;s own error is stated in docs/accuracy.md.</source>
        <translation type="vanished">主要风险：没有突出的风险；估算本身的误差见 docs/accuracy.md。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="157"/>
        <source>Does not fit on {machines}: the CPU memory does not hold it.</source>
        <translation>在 {machines} 上放不下：CPU 内存放不下。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="160"/>
        <source>Does not fit on {machines}.</source>
        <translation>在 {machines} 上放不下。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="161"/>
        <source>Does not fit on {machines}: {why}</source>
        <translation>在 {machines} 上放不下：{why}</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="183"/>
        <source>Main risk: at {length} tokens each the KV cache holds {held} users at once, not the {asked} the engine is set to decode (max_num_seqs); the others wait.</source>
        <translation>主要风险：每个用户 {length} 个 token 时，KV 缓存只能同时容纳 {held} 个用户，而不是引擎设定同时解码的 {asked} 个（max_num_seqs）；其余的需要等待。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="188"/>
        <source>Main risk: one slot (n_parallel 1) answers one request at a time; a second user waits until the first answer is done. Set more slots to serve several at once.</source>
        <translation>主要风险：只有一个槽位（n_parallel 1），一次只回答一个请求；第二个用户要等第一个回答完成。设置更多槽位才能同时服务多人。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="192"/>
        <source>Main risk: one request at the full context ({length} tokens) fills the KV cache; the next one waits.</source>
        <translation>主要风险：一个满上下文（{length} 个 token）的请求就占满 KV 缓存；下一个请求要等待。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="200"/>
        <source>Main risk: none stands out in memory; the times and costs are estimates, with the range 8 in 10 measured runs like it came within.</source>
        <translation>主要风险：内存方面没有突出风险；时间和费用均为估算值，并给出了 10 次类似实测运行中有 8 次落入的范围。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="225"/>
        <source>Main risk: the time. Measured runs like this one took up to {multiple}x the model&apos;s step time: plan for the slow end of the range.</source>
        <translation>主要风险：时间。与此类似的实测运行耗时最多达到模型步时的 {multiple} 倍：请按范围的慢端做计划。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="235"/>
        <source>Output tokens/s of all {n} engine instances ({users} sequences; the rows above are one instance&apos;s)</source>
        <translation>全部 {n} 个引擎实例的输出 token/s（{users} 条序列；以上各行为单个实例的数字）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="243"/>
        <source>No speed: the engine does not start.</source>
        <translation>没有速度：引擎无法启动。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="246"/>
        <source>Maximum concurrency at {length} tokens</source>
        <translation>{length} 个 token 时的最大并发</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="248"/>
        <source>Time to first token</source>
        <translation>首个 token 用时</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="249"/>
        <source>Time per output token</source>
        <translation>每个输出 token 用时</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="250"/>
        <source>Output tokens/s at {users} sequences</source>
        <translation>{users} 条序列时的输出 token/s</translation>
    </message>
    <message>
        <source>Engine instances</source>
        <translation type="vanished">引擎实例</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="279"/>
        <source>GPUs an hour ({n} x {price})</source>
        <translation>GPU 每小时费用（{n} × {price}）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="283"/>
        <source>GPUs a month, running all the time ({hours} hours)</source>
        <translation>GPU 每月费用，全天候运行（{hours} 小时）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="285"/>
        <source>A million output tokens</source>
        <translation>一百万个输出 token</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="299"/>
        <source>Step time, measured runs like this one (8 in 10)</source>
        <translation>步时间，与此类似的实测运行（每 10 次中 8 次）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="300"/>
        <source>Time to first token, measured runs like this one (8 in 10)</source>
        <translation>首个 token 的时间，与此类似的实测运行（每 10 次中 8 次）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="301"/>
        <source>Time per output token, measured runs like this one (8 in 10)</source>
        <translation>每个输出 token 的时间，与此类似的实测运行（每 10 次中 8 次）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="302"/>
        <source>Output tokens/s, measured runs like this one (8 in 10)</source>
        <translation>每秒输出 token 数，与此类似的实测运行（每 10 次中 8 次）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="303"/>
        <source>A million output tokens, as the tokens/s range</source>
        <translation>一百万个输出 token（按每秒 token 数的范围推算）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="304"/>
        <source>Time to train and cost, as the step time&apos;s range</source>
        <translation>训练总时长与费用（按步时间的范围推算）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="312"/>
        <source>No time or cost: the run does not fit.</source>
        <translation>没有时间和费用：这次训练放不下。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="314"/>
        <source>No time or cost: the step time cannot be computed.</source>
        <translation>没有时间和费用：无法计算每步时间。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="316"/>
        <source>Step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="317"/>
        <source>Tokens/s</source>
        <translation>tokens/s（吞吐）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="318"/>
        <source>MFU</source>
        <translation>MFU（模型算力利用率）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="320"/>
        <source>MFU with attention counted whole (as torchtitan prints it)</source>
        <translation>注意力全量计入时的 MFU（即 torchtitan 打印的值）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="324"/>
        <source>Speed capped (MFU with attention counted whole, as the published runs&apos; ceiling was measured)</source>
        <translation>速度已封顶（注意力全量计入的 MFU，与已发表运行的上限计法相同）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="326"/>
        <source>{mfu:.0%} lowered to {held:.0%} (at most {cap:.0%})</source>
        <translation>{mfu:.0%} 降至 {held:.0%}（上限 {cap:.0%}）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="333"/>
        <location filename="../../engine/plan_card.py" line="344"/>
        <source>Time to train</source>
        <translation>训练总时长</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="334"/>
        <source>not asked (no tokens to train set)</source>
        <translation>未计算（未设置训练 token 数）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="339"/>
        <source>{time} to train on {tokens} tokens (likely {low} to {high}).</source>
        <translation>训练 {tokens} token 需要 {time}（可能为 {low} 至 {high}）。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="342"/>
        <source>{time} to train on {tokens} tokens.</source>
        <translation>训练 {tokens} token 需要 {time}。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="346"/>
        <source>Optimizer steps</source>
        <translation>优化器步数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="37"/>
        <source>step time = the sum of its terms, each on the slowest rank</source>
        <translation>每步时间 = 各项时间之和（每项取最慢的 rank）</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="38"/>
        <source>tokens/s = tokens per step / step time</source>
        <translation>tokens/s = 每步 token 数 / 每步时间</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="39"/>
        <source>tokens/s per GPU = tokens/s / GPUs</source>
        <translation>每 GPU tokens/s = tokens/s / GPU 数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="40"/>
        <source>time to train = tokens to train / tokens/s</source>
        <translation>训练用时 = 要训练的 token 数 / tokens/s</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="41"/>
        <source>GPU-hours = time to train x GPUs</source>
        <translation>GPU 小时 = 训练用时 × GPU 数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="42"/>
        <source>cost = GPU-hours x price per GPU-hour</source>
        <translation>费用 = GPU 小时 × 每 GPU 小时价格</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="54"/>
        <source>step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="56"/>
        <location filename="../../engine/figure_words.py" line="100"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="60"/>
        <source>tokens per step</source>
        <translation>每步 token 数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="63"/>
        <source>model FLOPs per token</source>
        <translation>每 token 模型 FLOPs</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="69"/>
        <source>tokens to train</source>
        <translation>要训练的 token 数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="71"/>
        <source>time to train</source>
        <translation>训练用时</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="74"/>
        <location filename="../../engine/plan_card.py" line="348"/>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="75"/>
        <location filename="../../engine/figure_words.py" line="101"/>
        <source>price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="82"/>
        <source>sequences decoded together</source>
        <translation>同时解码的序列数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="85"/>
        <source>time to first token = the prompt&apos;s prefill, term by term</source>
        <translation>首 token 时间 = 提示词预填充，逐项列出</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="88"/>
        <source>time per output token = one decode step, term by term</source>
        <translation>每个输出 token 的时间 = 一次解码步，逐项列出</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="91"/>
        <source>output tokens/s = sequences decoded together / time per output token</source>
        <translation>输出 tokens/s = 同时解码的序列数 / 每个输出 token 的时间</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="95"/>
        <source>a million output tokens = 1,000,000 / (output tokens/s x engine instances) / 3,600 x GPUs x price per GPU-hour</source>
        <translation>一百万输出 token 的费用 = 1,000,000 / (输出 tokens/s × 引擎实例数) / 3,600 × GPU 数 × 每 GPU 小时价格</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="98"/>
        <source>output tokens/s</source>
        <translation>输出 tokens/s</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="99"/>
        <source>engine instances</source>
        <translation>引擎实例数</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="113"/>
        <source>per GPU now</source>
        <translation>当前每块 GPU</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="114"/>
        <source>per GPU after the change</source>
        <translation>改动后每块 GPU</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="116"/>
        <source>saves = per GPU now - per GPU after the change (reserve and overheads included); the components that move most:</source>
        <translation>节省 = 当前每块 GPU − 改动后每块 GPU（含余量与开销）；变化最大的组成部分：</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="353"/>
        <source>Cost {cost} at {price} per GPU-hour (likely {low} to {high}).</source>
        <translation>按每 GPU 小时 {price} 计，费用 {cost}（可能为 {low} 至 {high}）。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="357"/>
        <source>Cost {cost} at {price} per GPU-hour.</source>
        <translation>按每 GPU 小时 {price} 计，费用 {cost}。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="359"/>
        <source>Cost (at {price} per GPU-hour)</source>
        <translation>费用（每 GPU 小时 {price}）</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="371"/>
        <source>{first} and {last}</source>
        <translation>{first}，并{last}</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="372"/>
        <source>{first}, {rest}</source>
        <translation>{first}，{rest}</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="387"/>
        <source>No change the planner tries makes it fit: see the limits in Make it fit.</source>
        <translation>规划器尝试的任何改动都放不下：请查看“让它放得下”中的上限。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="391"/>
        <source>To make it fit: {first} — {first_total} per GPU.</source>
        <translation>要放得下：{first} —— 每块 GPU {first_total}。</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="392"/>
        <source>To make it fit: {first} — {first_total} per GPU; or {second} — {second_total} per GPU.</source>
        <translation>要放得下：{first} —— 每块 GPU {first_total}；或{second} —— 每块 GPU {second_total}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/card_file.py" line="37"/>
        <source>is an image or PDF without a scenario in it; only plan cards exported by LLM Memory Planner carry one.</source>
        <translation>是一张不含场景的图片或 PDF；只有 LLM Memory Planner 导出的计划卡片才带有场景。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/card_file.py" line="43"/>
        <source>is a plan card whose embedded scenario is damaged; export the card again from the scenario.</source>
        <translation>是一张计划卡片，但其中嵌入的场景已损坏；请从该场景重新导出卡片。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="377"/>
        <source>is not a scenario key; did you mean {p}?</source>
        <translation>不是有效的场景键；您是想写 {p} 吗？</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/format.py" line="379"/>
        <source>is not a scenario key.</source>
        <translation>不是有效的场景键。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fit_options.py" line="87"/>
        <source>use Liger kernels (fused, memory-saving training kernels)</source>
        <translation>使用 Liger 内核（融合的、节省显存的训练内核）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/suggest.py" line="90"/>
        <source>Use Liger kernels (fused, memory-saving training kernels)</source>
        <translation>使用 Liger 内核（融合的、节省显存的训练内核）</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/file.py" line="81"/>
        <source>is not valid JSON; it may be truncated or damaged.</source>
        <translation>不是有效的 JSON；它可能被截断或已损坏。</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="72"/>
        <source>training configs do not name the GPU; the one in your set-up is kept</source>
        <translation>训练配置不指明 GPU；保留您当前配置中的 GPU</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="73"/>
        <source>training configs do not say how many GPUs; the number in your set-up is kept</source>
        <translation>训练配置不写 GPU 数量；保留您当前配置中的数量</translation>
    </message>
    <message>
        <location filename="../config_actions.py" line="74"/>
        <source>training configs do not say how many GPUs; your set-up&apos;s number is raised to the least the files&apos; parallel layout needs</source>
        <translation>训练配置没有说明 GPU 数量；你设置中的数量被提高到文件中并行布局所需的最小值</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="22"/>
        <source>A reference with the adapters switched off needs LoRA or QLoRA training; with method {method} choose a separate or precomputed reference.</source>
        <translation>关闭适配器作为参考模型需要 LoRA 或 QLoRA 训练；方法为 {method} 时请选择独立副本或预先计算的参考。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="26"/>
        <source>{objective} generates new completions every step, so their reference log-probs cannot be computed before training; choose a separate or adapter-off reference.</source>
        <translation>{objective} 每一步都生成新的回答，其参考对数概率无法在训练前算好；请选择独立副本或关闭适配器的参考。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="31"/>
        <source>Only PPO trains a critic (value model); set the critic to none for {objective}.</source>
        <translation>只有 PPO 训练评论家（价值模型）；{objective} 请把评论家设为无。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="37"/>
        <source>The mean prompt ({mean} tokens) cannot be longer than the prompt length it is padded to ({cap} tokens).</source>
        <translation>平均提示（{mean} 个 token）不能长于它被填充到的提示长度（{cap} 个 token）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="54"/>
        <source>Tokens per micro-batch ({tokens}) must hold at least one whole sequence: the prompt and the longest completion ({longest} tokens).</source>
        <translation>每个微批次的 token 数（{tokens}）必须至少容纳一条完整序列：提示加最长补全（{longest} 个 token）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="59"/>
        <source>The critic&apos;s tokens per micro-batch ({tokens}) must hold at least one whole sequence: the prompt and the longest completion ({longest} tokens).</source>
        <translation>评论家每个微批次的 token 数（{tokens}）必须至少容纳一条完整序列：提示加最长补全（{longest} 个 token）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="71"/>
        <source>Ulysses sequence parallelism {sp} must divide the model&apos;s {heads} attention heads, and divide or be a multiple of its {kv} key/value heads.</source>
        <translation>Ulysses 序列并行度 {sp} 必须整除模型的 {heads} 个注意力头，并且整除或是其 {kv} 个键/值头的倍数。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="75"/>
        <source>Ulysses sequence parallelism {sp} must divide the {dp} data-parallel GPUs.</source>
        <translation>Ulysses 序列并行度 {sp} 必须整除 {dp} 个数据并行 GPU。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="82"/>
        <source>A generation engine on GPUs of its own needs the number of those GPUs (rollout GPUs).</source>
        <translation>在独立 GPU 上运行的生成引擎需要给出这些 GPU 的数量（生成 GPU）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="85"/>
        <source>The generation engine&apos;s tensor-parallel size {tp} must divide its {gpus} GPUs.</source>
        <translation>生成引擎的张量并行规模 {tp} 必须整除它的 {gpus} 块 GPU。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="89"/>
        <source>The engine can share the trainer&apos;s weights only on the same GPUs (colocated).</source>
        <translation>只有在同一批 GPU 上（共置）引擎才能与训练共用权重。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="92"/>
        <source>The colocated generation engine&apos;s tensor-parallel size {tp} must divide the {gpus} training GPUs.</source>
        <translation>共置生成引擎的张量并行规模 {tp} 必须整除 {gpus} 块训练 GPU。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_checks.py" line="97"/>
        <source>{objective} compares completions of the same prompt, so it needs at least 2 generations per prompt.</source>
        <translation>{objective} 比较同一提示的多个回答，每个提示至少需要生成 2 个回答。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_keys.py" line="46"/>
        <source>must be null{same}, a model preset id or {{&quot;name&quot;: ..., &quot;hf_config&quot;: {{...}}}} ({detail}).</source>
        <translation>必须是 null{same}、模型预设 id 或 {{&quot;name&quot;: ..., &quot;hf_config&quot;: {{...}}}}（{detail}）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/posttraining_keys.py" line="136"/>
        <source>must be &quot;auto&quot; or a fraction above 0 and at most 1, not {p!r}.</source>
        <translation>必须是 &quot;auto&quot; 或大于 0、至多为 1 的比例，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_fit.py" line="125"/>
        <source>serve-fit answers inference scenarios: set workload to inference.</source>
        <translation>serve-fit 只回答推理场景：请把 workload 设为 inference。</translation>
    </message>
    <message>
        <source>one layer&apos;s forward tensors + logits b·s·V x compute bytes + fp32 upcast + fp32 log-softmax</source>
        <translation type="vanished">一层前向的张量 + logits b·s·V × 计算精度字节数 + fp32 上转副本 + fp32 log-softmax</translation>
    </message>
    <message>
        <source>one layer&apos;s forward tensors + logits b·s·V x compute bytes + one sequence&apos;s log-softmax</source>
        <translation type="vanished">一层前向的张量 + logits b·s·V × 计算精度字节数 + 一条序列的 log-softmax</translation>
    </message>
    <message>
        <source>one layer&apos;s forward tensors + logits b·s·V x compute bytes + fp32 loss and log-sum-exp per token</source>
        <translation type="vanished">一层前向的张量 + logits b·s·V × 计算精度字节数 + 每个 token 的 fp32 损失与 log-sum-exp</translation>
    </message>
    <message>
        <source>one layer&apos;s forward tensors + one chunk of logits, about b·s·h x compute bytes</source>
        <translation type="vanished">一层前向的张量 + 一块 logits，约 b·s·h × 计算精度字节数</translation>
    </message>
    <message>
        <source>one layer&apos;s forward tensors + one fp32 score per token</source>
        <translation type="vanished">一层前向的张量 + 每个 token 一个 fp32 分数</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="13"/>
        <source>the larger of one layer&apos;s forward tensors and, at the head, logits b·s·V x compute bytes + fp32 upcast + fp32 log-softmax</source>
        <translation>一层前向张量与输出头处张量中的较大者：输出头处为 logits b·s·V × 计算精度字节 + fp32 上转副本 + fp32 log-softmax</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="17"/>
        <source>the larger of one layer&apos;s forward tensors and, at the head, logits b·s·V x compute bytes + two sequences&apos; log-softmax</source>
        <translation>一层前向张量与输出头处张量中的较大者：输出头处为 logits b·s·V × 计算精度字节 + 两条序列的 log-softmax</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="20"/>
        <source>the larger of one layer&apos;s forward tensors and, at the head, logits b·s·V x compute bytes + fp32 loss and log-sum-exp per token</source>
        <translation>一层前向张量与输出头处张量中的较大者：输出头处为 logits b·s·V × 计算精度字节 + 每个 token 的 fp32 损失和 log-sum-exp</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="23"/>
        <source>the larger of one layer&apos;s forward tensors and, at the head, logits b·s·V x compute bytes + their fp32 copy + fp32 log-sum-exp per token</source>
        <translation>单层前向张量与输出头处（logits b·s·V × 计算精度字节 + 其 fp32 副本 + 每个 token 的 fp32 log-sum-exp）二者中的较大者</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="26"/>
        <source>the larger of one layer&apos;s forward tensors and, at the head, one chunk of logits, about b·s·h x compute bytes</source>
        <translation>一层前向张量与输出头处张量中的较大者：输出头处为一个 logits 分块，约 b·s·h × 计算精度字节</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="30"/>
        <source>the larger of one layer&apos;s forward tensors and, at the head, logits b·s·V/tp x compute bytes + their fp32 copy (the model&apos;s own loss, worked in place)</source>
        <translation>一层前向张量与输出头处张量中的较大者：输出头处为 logits b·s·V/tp × 计算精度字节 + 其 fp32 副本（模型自身的损失，原地计算）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="35"/>
        <source>the larger of one layer&apos;s forward tensors and one fp32 score per token</source>
        <translation>一层前向张量与每个 token 一个 fp32 分数中的较大者</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="39"/>
        <source>the larger of one layer&apos;s forward tensors and, at the head, the fused head&apos;s projection buffer min(tokens, token tile) x vocabulary chunk x compute bytes + 7 fp32 statistics per token</source>
        <translation>一层前向张量与输出头处张量中的较大者：输出头处为融合输出头的投影缓冲区 min(token 数, token 分块) × 词表分块 × 计算精度字节 + 每个 token 7 个 fp32 统计量</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="44"/>
        <source>the larger of one layer&apos;s forward tensors (+ LoRA&apos;s fp32 adapter outputs) and the head&apos;s (the log-prob path&apos;s tensors, or the logits + the entropy&apos;s softmax and product, 2 x b·c·V x compute bytes, or the response logits&apos; copy, b·c·V x compute bytes) + autocast&apos;s bf16 weight cache</source>
        <translation>一层前向张量（+ LoRA 的 fp32 适配器输出）与输出头处张量（对数概率路径的张量，或 logits + 熵计算的 softmax 及其乘积 2 × b·c·V × 计算精度字节，或回答部分 logits 的副本 b·c·V × 计算精度字节）中的较大者 + autocast 的 bf16 权重缓存</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="138"/>
        <source>row-by-row log-softmax in training (TRL selective_log_softmax, verl logprobs_from_logits_v2): logits b·k·V (compute bytes) + every scored row&apos;s log-softmax output kept for backward; backward: 2 x b·k·V (the rows&apos; gradients gathered into the logits&apos; gradient); logits scaled in place on a view (TRL GRPO): + the entropy&apos;s copy of the view in forward, 4 x b·k·V in backward (CopySlices: the base&apos;s gradient, its clone, the slice&apos;s clone and quotient)</source>
        <translation>训练中逐行 log-softmax（TRL selective_log_softmax、verl logprobs_from_logits_v2）：logits b·k·V（计算字节）+ 每个被打分行的 log-softmax 输出（为反向保留）；反向：2 x b·k·V（各行梯度汇成 logits 的梯度）；在视图上原地缩放 logits（TRL GRPO）：前向再加熵计算对该视图的拷贝，反向 4 x b·k·V（CopySlices：基张量的梯度、其克隆、切片的克隆与商）</translation>
    </message>
    <message>
        <source>TRL selective_log_softmax in training: logits b·k·V (compute bytes) + every sequence&apos;s log-softmax output kept for backward (compute bytes); backward: those outputs + the logits&apos; gradient</source>
        <translation type="vanished">训练中 TRL 的 selective_log_softmax：logits b·k·V（计算精度字节）+ 为反向保留的每条序列的 log-softmax 输出（计算精度字节）；反向：这些输出 + logits 的梯度</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="144"/>
        <source>TRL&apos;s fused log-prob head: forward, its projection buffer + 7 fp32 statistics per token; backward, the buffer + the hidden states&apos; gradient in fp32 and cast (tokens x h x (4 + compute bytes)) + the lm_head weight&apos;s gradient in fp32 and cast (V x h x (4 + compute bytes), when the head trains)</source>
        <translation>TRL 的融合对数概率输出头：前向为其投影缓冲区 + 每个 token 7 个 fp32 统计量；反向为该缓冲区 + fp32 累加并转换精度的隐藏状态梯度（token 数 × h × (4 + 计算精度字节)）+ fp32 累加并转换精度的 lm_head 权重梯度（V × h × (4 + 计算精度字节)，仅当输出头参与训练时）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="277"/>
        <source>the loss path&apos;s logits tensors + the chosen sequences&apos; NLL term (rpo_alpha / cpo_alpha above 0): forward, the chosen half&apos;s log-softmax kept for backward (b/2·k·V x the logits&apos; bytes); backward, the slice&apos;s zero-filled gradient of the whole logits (b·k·V x the logits&apos; bytes) beside the loss path&apos;s own</source>
        <translation>损失路径的 logits 张量 + 被选序列的 NLL 项（rpo_alpha / cpo_alpha 大于 0）：前向为被选一半的 log-softmax，保留至反向（b/2·k·V × logits 字节数）；反向为切片对整个 logits 的零填充梯度（b·k·V × logits 字节数），与损失路径自身的梯度同时存在</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/ppo_rollout.py" line="22"/>
        <source>TRL&apos;s PPO rollout pass over a chunk of the rollout batch (no_grad, output_hidden_states): every layer&apos;s hidden state (layers + 1) x b·s·h + the fp32 sampling scores b·r·V x 4 kept by the loop + the larger of one layer&apos;s tensors and the head&apos;s (reference: the whole sequence&apos;s logits b·s·V + two response rows&apos; log-softmax; value / reward model: one score per token)</source>
        <translation>TRL 的 PPO rollout 对一块 rollout 批次的前向（no_grad，output_hidden_states）：每层的隐藏状态（层数 + 1）× b·s·h + 循环保留的 fp32 采样分数 b·r·V × 4 + 单层张量与输出头张量中的较大者（参考模型：整个序列的 logits b·s·V + 两个回复行的 log-softmax；价值 / 奖励模型：每个 token 一个分数）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="111"/>
        <source>cpo_alpha not set: TRL&apos;s and ms-swift&apos;s default 1.0 adds the chosen sequences&apos; NLL</source>
        <translation>未设置 cpo_alpha：TRL 和 ms-swift 的默认值 1.0 会加入被选序列的 NLL</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="122"/>
        <source>expected a weight from 0 to 100, found {value!r}</source>
        <translation>应为 0 到 100 之间的权重，实际为 {value!r}</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="148"/>
        <source>TRL selective_log_softmax on fp32 logits (log-sum-exp per sequence): forward, logits b·k·V x 4 + one sequence&apos;s temporary; backward, four logits-sized fp32 tensors: the logits (saved by gather and logsumexp), gather&apos;s zero-filled gradient, the sequences&apos; gradients and their stack</source>
        <translation>TRL 的 selective_log_softmax 作用于 fp32 logits（逐序列 log-sum-exp）：前向为 logits b·k·V × 4 + 一条序列的临时张量；反向为四个 logits 大小的 fp32 张量：logits（由 gather 与 logsumexp 保存）、gather 的零填充梯度、各序列的梯度及其堆叠</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="152"/>
        <source>logits b·s·V cast to fp32 before flash-attn&apos;s cross-entropy: forward, the logits (compute bytes) + their fp32 copy; backward, the fp32 copy (held by the model&apos;s output) + its fp32 gradient + that gradient cast back (compute bytes)</source>
        <translation>logits b·s·V 在 flash-attn 交叉熵之前转换为 fp32：前向为 logits（计算精度字节）+ 其 fp32 副本；反向为 fp32 副本（由模型输出持有）+ 其 fp32 梯度 + 该梯度转换回的副本（计算精度字节）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="156"/>
        <source>the loss path&apos;s logits tensors (with verl&apos;s entropy bonus: + the compiled entropy&apos;s fp32 buffer in forward), the logits divided by the temperature in place on a view of the model&apos;s output (verl&apos;s padding-free path): backward runs CopySlices over the whole logits, 4 x b·s·V x compute bytes (the incoming gradient, its copy in the output&apos;s shape, the slice&apos;s clone and the division&apos;s gradient)</source>
        <translation>损失路径的 logits 张量（带 verl 熵奖励时：前向另有编译后熵计算的 fp32 缓冲区），logits 在模型输出的视图上原地除以温度（verl 的无填充路径）：反向时 CopySlices 作用于整个 logits，共 4 x b·s·V x 计算字节（传入的梯度、其按输出形状的副本、切片的克隆以及除法的梯度）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/logprobs.py" line="161"/>
        <source>the loss path&apos;s logits tensors for the completion tokens only (logits_to_keep): the estimator&apos;s b·s·V terms x completion / (prompt + completion)</source>
        <translation>只为回答部分的 token 计算的损失路径 logits 张量（logits_to_keep）：估算器的 b·s·V 项 × 回答长度 /（提示长度 + 回答长度）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="32"/>
        <source>Critic weights</source>
        <translation>评论家（价值模型）权重</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="33"/>
        <source>Critic frozen weights</source>
        <translation>评论家冻结权重</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="34"/>
        <source>Critic fp32 master weights</source>
        <translation>评论家 fp32 主权重</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="35"/>
        <source>Critic gradients</source>
        <translation>评论家梯度</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="36"/>
        <source>Critic optimizer states</source>
        <translation>评论家优化器状态</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="37"/>
        <source>Critic activations (decoder layers)</source>
        <translation>评论家激活（解码器层）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="38"/>
        <source>Critic value head and loss</source>
        <translation>评论家价值头与损失</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="39"/>
        <source>Critic final norm and value head inputs</source>
        <translation>评论家最终归一化与价值头输入</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="40"/>
        <source>Critic input ids and rotary tables</source>
        <translation>评论家输入 id 与旋转位置表</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="41"/>
        <source>Critic backward scratch (one layer&apos;s gradients)</source>
        <translation>评论家反向临时空间（一层的梯度）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="42"/>
        <source>Critic optimizer step temporaries</source>
        <translation>评论家优化器步临时张量</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="45"/>
        <source>Critic model states (other)</source>
        <translation>评论家模型状态（其他）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="46"/>
        <source>Critic activations (other)</source>
        <translation>评论家激活（其他）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="48"/>
        <source>Critic temporaries</source>
        <translation>评论家临时张量</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="115"/>
        <source>Reference model (frozen copy)</source>
        <translation>参考模型（冻结副本）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="116"/>
        <source>(language-model parameters / (tp x pp x ZeRO-3 data-parallel shards) + vision tower / its shards) x compute bytes; a QLoRA policy&apos;s reference is quantised like its base</source>
        <translation>（语言模型参数量 /（tp × pp × ZeRO-3 数据并行分片数）+ 视觉塔 / 其分片数）× 计算精度字节数；QLoRA 策略的参考模型与其基座一样量化</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="124"/>
        <source>Reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/models.py" line="126"/>
        <source>reward model parameters x compute bytes / shards</source>
        <translation>奖励模型参数量 × 计算精度字节数 / 分片数</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="81"/>
        <source>Generation engine weights</source>
        <translation>生成引擎权重</translation>
    </message>
    <message>
        <source>policy parameters x engine bytes / rollout_tp</source>
        <translation type="vanished">策略模型参数量 × 引擎中的字节数 / rollout_tp</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="89"/>
        <source>Generation engine activations and overheads</source>
        <translation>生成引擎激活值与开销</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="90"/>
        <source>the engine&apos;s profile-run peak (forward of max_num_batched_tokens or the sampler&apos;s logits), non-torch memory and CUDA graphs (engine/serving)</source>
        <translation>引擎试运行的峰值（max_num_batched_tokens 的前向或采样器的 logits）、非 torch 显存和 CUDA 图（engine/serving）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="94"/>
        <source>Generation engine KV cache</source>
        <translation>生成引擎 KV 缓存</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="95"/>
        <source>gpu_memory_utilization x capacity - weights - profile peak - non-torch memory, in whole blocks (engine/serving, vLLM gpu_worker.py)</source>
        <translation>gpu_memory_utilization × 容量 - 权重 - 试运行峰值 - 非 torch 显存，按整块计（engine/serving，vLLM gpu_worker.py）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="133"/>
        <source>generate() KV cache</source>
        <translation>generate() 的 KV 缓存</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="134"/>
        <source>per layer K and V of every sequence of the step at full length</source>
        <translation>本步每条序列在完整长度下每层的 K 和 V</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="137"/>
        <source>Weights gathered for generate()</source>
        <translation>为 generate() 聚合的权重</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="138"/>
        <source>ZeRO-3 gathers the whole model for generation (TRL ds3_gather_for_generation, default true)</source>
        <translation>ZeRO-3 为生成聚合整个模型（TRL ds3_gather_for_generation，默认开启）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="154"/>
        <source>Value model gathered for generate()</source>
        <translation>为 generate() 聚合的价值模型</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="155"/>
        <source>the value model&apos;s parameters (backbone + score head) x compute bytes: TRL gathers the policy-and-value wrapper whole under ZeRO-3</source>
        <translation>价值模型的参数（主干 + 打分头）× 计算字节数：ZeRO-3 下 TRL 将策略与价值模型的包装整体聚合</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="160"/>
        <source>generate() sampling scores</source>
        <translation>generate() 的采样分数</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="161"/>
        <source>2 x 4 bytes x sequences x completion_len x vocab: fp32 scores of each new token (output_scores) and their stacked copy</source>
        <translation>2 × 4 字节 × 序列数 × completion_len × 词表：每个新 token 的 fp32 分数（output_scores）及其堆叠副本</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="220"/>
        <source>Old-policy log-probs forward</source>
        <translation>旧策略对数概率前向</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="225"/>
        <source>Policy forward over the KL (mismatched) batch</source>
        <translation>策略模型对 KL（错配）批次的前向</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="312"/>
        <source>Reference forward during the training step</source>
        <translation>训练步内的参考模型前向</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="313"/>
        <source>the reference forward&apos;s peak (no_grad, one layer or the head at a time) less the policy&apos;s logits freed before it runs</source>
        <translation>参考模型前向的峰值（no_grad，每次一层或输出头）减去其运行前已释放的策略 logits</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="256"/>
        <location filename="../../engine/posttraining/phases.py" line="325"/>
        <source>Reference log-probs forward</source>
        <translation>参考模型对数概率前向</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="82"/>
        <source>policy parameters x engine bytes / rollout_tp, the routers, norms and MLA&apos;s down-projections whole on every engine rank</source>
        <translation>策略模型参数量 × 引擎中的字节数 / rollout_tp，路由器、归一化层和 MLA 的降维投影在每个引擎 rank 上完整保存</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="233"/>
        <location filename="../../engine/posttraining/phases.py" line="263"/>
        <source>Reward model forward</source>
        <translation>奖励模型前向</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="239"/>
        <location filename="../../engine/posttraining/phases.py" line="260"/>
        <source>Critic values forward</source>
        <translation>评论家价值前向</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="275"/>
        <source>Per-token loss tensors (log-probs, ratios, KL)</source>
        <translation>逐 token 的损失张量（对数概率、比率、KL）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="276"/>
        <source>tensors per completion token x 4 bytes: new, old and reference log-probs, ratio, clipped ratio, KL, surrogate losses (preference objectives: chosen/rejected log-probs)</source>
        <translation>每个回答 token 的张量数 × 4 字节：新、旧和参考对数概率、比率、截断比率、KL、替代损失（偏好目标：选中/拒绝回答的对数概率）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="371"/>
        <source>Weight-sync staging</source>
        <translation>权重同步暂存</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/phases.py" line="372"/>
        <source>per-parameter: the largest tensor gathered whole (ZeRO-3/FSDP); bucket: the framework&apos;s bucket + one gathered tensor; LoRA under ZeRO-3: the whole model gathered to merge the adapters</source>
        <translation>逐参数：完整聚合的最大张量（ZeRO-3/FSDP）；分桶：框架的桶 + 一个聚合张量；ZeRO-3 下的 LoRA：为合并适配器聚合整个模型</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/result.py" line="20"/>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/result.py" line="21"/>
        <source>Scoring (reference, reward, old log-probs)</source>
        <translation>打分（参考、奖励、旧对数概率）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/result.py" line="22"/>
        <source>Training step</source>
        <translation>训练步骤</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/result.py" line="23"/>
        <location filename="../../engine/posttraining/term_words.py" line="12"/>
        <source>Critic training step</source>
        <translation>评论家训练步骤</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/result.py" line="24"/>
        <location filename="../../engine/posttraining/term_words.py" line="13"/>
        <source>Weight sync to the engine</source>
        <translation>向引擎同步权重</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="10"/>
        <source>Generation (prefill + decode)</source>
        <translation>生成（预填充 + 解码）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="11"/>
        <source>Scoring forwards (reference, reward, old log-probs)</source>
        <translation>打分前向（参考、奖励、旧对数概率）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="14"/>
        <source>Offload between phases (copies to and from CPU memory)</source>
        <translation>阶段间卸载（与 CPU 内存之间的拷贝）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="18"/>
        <source>States moved to CPU memory around the weight sync and back, reference swapped in</source>
        <translation>权重同步前后状态移至 CPU 内存并移回，参考模型换入</translation>
    </message>
    <message>
        <source>prefill: (2 x active params + causal attention) x prompt tokens at the matmul rate; decode: per token, max(the longer of weights + KV of the sequences in flight / memory bandwidth and (2 x active params + attention over the cached tokens) x sequences / matmul rate, plus vLLM&apos;s and SGLang&apos;s kernels&apos; fixed time; the host&apos;s launches of every layer without CUDA graphs), plus vLLM V0&apos;s scheduling and input preparation of every running sequence and, without CUDA graphs, its output processing of each, or vLLM V1&apos;s scheduling and input preparation of each step, in waves of the sequences the engine holds at once; then, the batch waiting for its longest completion, one sequence decoding alone from completion_len to max_completion_len</source>
        <translation type="vanished">预填充：(2 × 激活参数量 + 因果注意力) × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(权重 + 在途序列的 KV) / 显存带宽与 (2 × 激活参数量 + 对已缓存 token 的注意力) × 序列数 / 矩阵乘速率中较长者，再加上 vLLM 与 SGLang 各内核的固定时间；无 CUDA graph 时主机逐层发射内核的时间），再加上 vLLM V0 对每个运行中序列的调度与输入准备，以及无 CUDA graph 时对每个序列的输出处理，或 vLLM V1 每步的调度与输入准备，按引擎一次能容纳的序列分批进行；之后这批等待其最长的补全，由一个序列单独从 completion_len 解码到 max_completion_len</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="85"/>
        <source>2 x optimizer-state bytes / pageable host rate + 2 x parameter bytes / host rate (pinned or pageable) + 3 x parameter bytes / pinned host rate for the reference&apos;s swap</source>
        <translation>2 x 优化器状态字节数 / 可分页主机速率 + 2 x 参数字节数 / 主机速率（锁页或可分页）+ 参考模型换入换出的 3 x 参数字节数 / 锁页主机速率</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="95"/>
        <source>(e_n x sigma x sqrt(1 - 1/k) / (tokens a sequence x sqrt(m))) x the update&apos;s matmuls, memory-bound passes and recompute (n ranks; micro-batches of a fixed count of sequences: m a micro-batch&apos;s sequences, k the micro-batches a rank; by token count (max_tokens_per_micro_batch): m a mini-batch&apos;s sequences a rank, k the mini-batches; sigma: sequence_len_std where stated, a run&apos;s log, else the completions&apos; spread, the maximum-entropy one of the mean and longest, assumed); each scoring pass&apos;s forward likewise, in the scoring, where its micro-batches hold a fixed count of sequences</source>
        <translation>（e_n x sigma x sqrt(1 - 1/k) /（每条序列的 token 数 x sqrt(m)））x 更新阶段的矩阵乘、访存受限计算与重计算（n 为 rank 数；按固定序列数切分的微批次：m 为每个微批次的序列数，k 为每个 rank 的微批次数；按 token 数切分（max_tokens_per_micro_batch）：m 为每个 rank 一个小批次的序列数，k 为小批次数；sigma：给出时取 sequence_len_std（运行日志中的值），否则为补全长度的离散程度：取给定均值与最长值下的最大熵分布，为假设）；微批次按固定序列数切分时，每次打分前向同样计算，计入打分阶段</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="120"/>
        <source>FSDP1&apos;s calls per unshard and reshard, counted from its source, and its own Python per visit, measured by running the logs&apos; code path on a CPU (benchmarks/verl_lora_host_counts.py), at the measured per-call host costs.</source>
        <translation>FSDP1 每次 unshard 与 reshard 的调用数（按其源码计数），加上其每次访问自身的 Python 开销（在 CPU 上运行日志所用的代码路径实测，benchmarks/verl_lora_host_counts.py），乘以实测的主机单次调用开销。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="124"/>
        <source>The copies NeMo-RL&apos;s policy worker makes around each weight sync and for the reference, read from its source, over the host link.</source>
        <translation>NeMo-RL 策略 worker 在每次权重同步前后及为参考模型所做的拷贝（读自其源码），经主机链路传输。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="20"/>
        <source>Packed micro-batches padded to the longest (pipeline parallel)</source>
        <translation>打包的微批次填充到最长者（流水线并行）</translation>
    </message>
    <message>
        <source>(the bin capacity / the mean sequences a bin holds - 1) x the training step; the scoring passes likewise</source>
        <translation type="vanished">（打包容量 / 一个打包所容纳的平均长度序列总长 - 1）x 训练步；打分前向同样如此</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="127"/>
        <source>NeMo-RL pads every packed micro-batch to the longest under a pipeline (from its source); the bins&apos; fill is assumed from the mean length, the longest at the capacity: an upper bound.</source>
        <translation>流水线并行下 NeMo-RL 将每个打包的微批次填充到最长者（读自其源码）；各打包的填充量按平均长度假定，最长者取容量：为上界。</translation>
    </message>
    <message>
        <source>prefill: 2 x active params x prompt tokens at the matmul rate; decode: per token, max(weights + KV of the sequences in flight / memory bandwidth, 2 x active params x sequences / matmul rate), in waves of the sequences the engine holds at once</source>
        <translation type="vanished">预填充：2 × 激活参数量 × 提示 token 数，按矩阵乘速率；解码：每个 token 取 max（(权重 + 在途序列的 KV) / 显存带宽，2 × 激活参数量 × 序列数 / 矩阵乘速率），按引擎一次能容纳的序列分批进行</translation>
    </message>
    <message>
        <source>forwards x 2 x active params x sequence tokens / matmul rate</source>
        <translation type="vanished">前向次数 × 2 × 激活参数量 × 序列 token 数 / 矩阵乘速率</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="69"/>
        <source>the critic&apos;s training step, from the training time model</source>
        <translation>评论家的训练步骤，取自训练时间模型</translation>
    </message>
    <message>
        <source>policy bytes / GPU-to-GPU bandwidth when gathered or sent, else / memory bandwidth</source>
        <translation type="vanished">需要聚合或发送时为策略模型字节数 / GPU 间带宽，否则 / 显存带宽</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="78"/>
        <source>2 x (parameter bytes x their loads per step (update, scoring, weight sync) + optimizer-state bytes) / host link bandwidth</source>
        <translation>2 × (参数字节数 × 每步加载次数（更新、打分、权重同步）+ 优化器状态字节数) / 主机链路带宽</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="82"/>
        <source>micro-batches x (forward + recompute + backward visits) x layers x adapted linears x max(0, 2 units x (FSDP1&apos;s counted calls + its measured Python) per visit at the host&apos;s per-call costs - the linear&apos;s base GEMM)</source>
        <translation>微批次数 x（前向 + 重计算 + 反向的访问次数）x 层数 x 加适配器的线性层数 x max(0, 2 个单元 x 每次访问的（FSDP1 计数的调用 + 其实测的 Python 开销）按主机单次调用开销计 - 该线性层基础 GEMM 的时间)</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="107"/>
        <source>Prefill FLOPs at the matmul rate and decode bytes at the memory bandwidth (a roofline), at the sequences the engine holds, a waiting one admitted as one ends.</source>
        <translation>预填充的 FLOPs 按矩阵乘速率、解码的字节按显存带宽计算（屋顶线模型），以引擎同时容纳的序列数运行，一个序列结束即补入一个等待中的序列。</translation>
    </message>
    <message>
        <source>Forward FLOPs of the scoring models at the matmul rate.</source>
        <translation type="vanished">打分模型前向的 FLOPs，按矩阵乘速率计算。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="112"/>
        <source>The critic&apos;s step from the training time model.</source>
        <translation>critic 的一步，由训练时间模型计算。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="113"/>
        <source>Policy bytes over the link they cross, or through memory when the engine shares the GPUs.</source>
        <translation>策略权重的字节经过所跨的链路；推理引擎与训练共用 GPU 时经过显存。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/term_words.py" line="115"/>
        <source>The states the offload takes off the GPU between phases, copied back and forth over the host link.</source>
        <translation>卸载在阶段之间移出 GPU 的状态，经主机链路来回拷贝。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="65"/>
        <source>must be a fraction above 0 and at most 1, or null, not {p!r}.</source>
        <translation>必须是大于 0、至多为 1 的比例或 null，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="120"/>
        <source>GGUF weight format {fmt} is served by llama.cpp or ollama, not {engine}.</source>
        <translation>GGUF 权重格式 {fmt} 由 llama.cpp 或 ollama 提供服务，而不是 {engine}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="125"/>
        <source>Weight format {fmt} is loaded by {engines}, not {engine}.</source>
        <translation>权重格式 {fmt} 由 {engines} 加载，不能用于 {engine}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="129"/>
        <source>KV cache type {dtype} is llama.cpp&apos;s; {engine} takes auto or fp8.</source>
        <translation>KV 缓存类型 {dtype} 属于 llama.cpp；{engine} 只接受 auto 或 fp8。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="133"/>
        <source>llama.cpp quantizes its KV cache as q8_0 or q4_0, not fp8.</source>
        <translation>llama.cpp 将 KV 缓存量化为 q8_0 或 q4_0，而不是 fp8。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="136"/>
        <source>llama.cpp needs flash attention for a quantized V cache: set flash_attn on or auto.</source>
        <translation>llama.cpp 量化 V 缓存需要 flash attention：请把 flash_attn 设为 on 或 auto。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="139"/>
        <source>vLLM takes a block size of 1, 8, 16, 32, 64 or 128 tokens, not {size}.</source>
        <translation>vLLM 的块大小只能是 1、8、16、32、64 或 128 个 token，而不是 {size}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/serving_keys.py" line="142"/>
        <source>n_ubatch ({ubatch}) cannot exceed n_batch ({batch}).</source>
        <translation>n_ubatch（{ubatch}）不能超过 n_batch（{batch}）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="164"/>
        <location filename="../../engine/serving/llama_cpp.py" line="171"/>
        <location filename="../../engine/serving/plain_engines.py" line="59"/>
        <source>Model weights</source>
        <translation>模型权重</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="166"/>
        <source>this GPU&apos;s shard of every tensor in the deployed format</source>
        <translation>每个张量在部署格式下分到本 GPU 的部分</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="169"/>
        <source>Activation peak of the profile run</source>
        <translation>试运行的激活峰值</translation>
    </message>
    <message>
        <source>max(forward of max_num_batched_tokens: residual + widest layer output; sampler: sequences x vocab x 28 bytes)</source>
        <translation type="vanished">max（max_num_batched_tokens 的前向：残差 + 最宽层输出；采样器：序列数 × 词表 × 28 字节）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="171"/>
        <source>max(forward of max_num_batched_tokens: residual + widest layer output; sampler: sequences x vocab x 38 bytes, its sort)</source>
        <translation>max（max_num_batched_tokens 的前向：残差 + 最宽层输出；采样器：序列数 × 词表 × 38 字节，含其排序）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="175"/>
        <source>CUDA graphs</source>
        <translation>CUDA 图</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="176"/>
        <source>largest captured batch x layers x (QKV + attention output + residual pair) x dtype bytes; 0 with enforce_eager</source>
        <translation>捕获的最大批次 × 层数 ×（QKV + 注意力输出 + 残差对）× 数据类型字节数；enforce_eager 时为 0</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="179"/>
        <source>Non-torch memory (cuBLAS, all-reduce buffers)</source>
        <translation>非 torch 显存（cuBLAS、all-reduce 缓冲区）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="181"/>
        <source>0.13 GiB, +0.42 GiB with tensor parallelism (vLLM&apos;s measured non-torch increase)</source>
        <translation>0.13 GiB，张量并行时再加 0.42 GiB（vLLM 实测的非 torch 增量）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="183"/>
        <location filename="../../engine/serving/llama_cpp.py" line="164"/>
        <location filename="../../engine/serving/plain_engines.py" line="68"/>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="184"/>
        <source>0.75 GiB per process (+0.25 GiB NCCL when tp x pp &gt; 1), before the engine&apos;s budget</source>
        <translation>每进程 0.75 GiB（tp × pp &gt; 1 时再加 0.25 GiB NCCL），在引擎预算之外</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="193"/>
        <source>{engine} refuses max_model_len {length}: the model was trained for {trained} tokens.</source>
        <translation>{engine} 拒绝 max_model_len {length}：该模型训练时的长度为 {trained} 个 token。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="224"/>
        <source>vLLM refuses: one request at max_model_len {length} needs {need} of KV cache, more than the {pool} available; the longest context at the estimated KV cache is {longest} tokens (tight: vLLM may or may not start with it).</source>
        <translation>vLLM 拒绝：一个 max_model_len 为 {length} 的请求需要 {need} KV 缓存，超过可用的 {pool}；按估计的 KV 缓存，最长上下文为 {longest} 个 token（偏紧：设为该值时 vLLM 可能启动也可能拒绝）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="260"/>
        <source>vLLM refuses: max_num_batched_tokens ({tokens}) must be at least max_num_seqs ({seqs}).</source>
        <translation>vLLM 拒绝：max_num_batched_tokens（{tokens}）必须至少为 max_num_seqs（{seqs}）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="266"/>
        <source>vLLM refuses to start: free memory on the GPU ({free}) is less than gpu_memory_utilization asks for ({requested}).</source>
        <translation>vLLM 拒绝启动：GPU 上的空闲显存（{free}）少于 gpu_memory_utilization 要求的量（{requested}）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="270"/>
        <location filename="../../engine/serving/generation.py" line="332"/>
        <source>The weights alone ({weights}) overflow the GPU while loading.</source>
        <translation>仅权重（{weights}）在加载时就超出 GPU 显存。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="218"/>
        <source>vLLM refuses: no available memory for the cache blocks (weights, activations and overheads take {used} of the {requested} budget).</source>
        <translation>vLLM 拒绝：没有可用于缓存块的显存（权重、激活值和开销占用了 {requested} 预算中的 {used}）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="151"/>
        <source>Image encoder in the profile run</source>
        <translation>性能剖析运行中的图像编码器</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="152"/>
        <source>max(encoder forward over the dummy images: pixels + residual + widest block; their cached outputs, held through the text run) beyond the text run&apos;s peak</source>
        <translation>max(编码器对虚拟图像的前向：像素 + 残差 + 最宽的块；其缓存的输出，在文本运行期间一直保留) 超出文本运行峰值的部分</translation>
    </message>
    <message>
        <source>vLLM refuses: one request at max_model_len {length} needs {need} of KV cache, more than the {pool} available; the longest that fits is {longest} tokens.</source>
        <translation type="vanished">vLLM 拒绝：一个 max_model_len 为 {length} 的请求需要 {need} KV 缓存，超过可用的 {pool}；能放下的最长为 {longest} 个 token。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="236"/>
        <source>vLLM may refuse: weights, activations and overheads take {used} of the {requested} budget, {short} short of one request at max_model_len {length} (within the start-up accounting&apos;s ±{band:.1%} of the budget, {band_bytes}).</source>
        <translation>vLLM 可能拒绝启动：权重、激活和开销占用了 {requested} 预算中的 {used}，距离一个 max_model_len 为 {length} 的请求还差 {short}（在启动显存核算 ±{band:.1%} 预算的误差范围内，即 {band_bytes}）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="242"/>
        <source>vLLM may refuse: one request at max_model_len {length} needs {need} of KV cache, {short} more than the {pool} available (within the start-up accounting&apos;s ±{band:.1%} of the budget, {band_bytes}).</source>
        <translation>vLLM 可能拒绝启动：一个 max_model_len 为 {length} 的请求需要 {need} KV 缓存，比可用的 {pool} 多 {short}（在启动显存核算 ±{band:.1%} 预算的误差范围内，即 {band_bytes}）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="247"/>
        <source>vLLM may refuse: its {pool} KV cache holds one request at max_model_len {length} ({need}) with only {spare} to spare (within the start-up accounting&apos;s ±{band:.1%} of the budget, {band_bytes}).</source>
        <translation>vLLM 可能拒绝启动：其 {pool} 的 KV 缓存放下一个 max_model_len 为 {length} 的请求（{need}）后只剩 {spare}（在启动显存核算 ±{band:.1%} 预算的误差范围内，即 {band_bytes}）。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="25"/>
        <source>a larger KV cache: room for the engine to start; less memory for training</source>
        <translation>KV 缓存变大：引擎有余地启动；训练可用的显存变少</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="279"/>
        <source>Capturing CUDA graphs runs out of memory: the budget ({requested}) plus graphs and context ({outside}) exceed the GPU; lower gpu_memory_utilization or set enforce_eager.</source>
        <translation>捕获 CUDA 图时显存不足：预算（{requested}）加上 CUDA 图和上下文（{outside}）超出 GPU；请降低 gpu_memory_utilization 或设置 enforce_eager。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="285"/>
        <source>vLLM starts with {pool} for the KV cache.</source>
        <translation>vLLM 启动，KV 缓存为 {pool}。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="307"/>
        <location filename="../../engine/serving/generation.py" line="360"/>
        <location filename="../../engine/serving/llama_cpp.py" line="184"/>
        <location filename="../../engine/serving/plain_engines.py" line="70"/>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="309"/>
        <source>gpu_memory_utilization x capacity - weights - activation peak - non-torch, cut into blocks of block_size tokens per layer group</source>
        <translation>gpu_memory_utilization × 容量 - 权重 - 激活峰值 - 非 torch 显存，按每个层组 block_size 个 token 切成块</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="335"/>
        <source>SGLang refuses: not enough memory for the KV cache at mem_fraction_static {fraction} (weights {weights} of {static}).</source>
        <translation>SGLang 拒绝：mem_fraction_static 为 {fraction} 时 KV 缓存显存不足（权重占 {static} 中的 {weights}）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="342"/>
        <source>SGLang starts, but activations and CUDA graphs ({runtime}) may outgrow the {left} that mem_fraction_static leaves: lower it or max_num_batched_tokens.</source>
        <translation>SGLang 可以启动，但激活值和 CUDA 图（{runtime}）可能超出 mem_fraction_static 留下的 {left}：请调低它或 max_num_batched_tokens。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="346"/>
        <source>SGLang starts, but its KV cache holds {tokens} tokens, fewer than max_model_len {length}: longer requests are refused.</source>
        <translation>SGLang 可以启动，但其 KV 缓存只能容纳 {tokens} 个 token，少于 max_model_len {length}：更长的请求会被拒绝。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="349"/>
        <source>SGLang starts with {tokens} KV cache tokens.</source>
        <translation>SGLang 启动，KV 缓存可容纳 {tokens} 个 token。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/generation.py" line="361"/>
        <source>mem_fraction_static x free memory - weights, divided by the KV bytes of one token over all layers</source>
        <translation>mem_fraction_static × 空闲显存 - 权重，再除以一个 token 在所有层上的 KV 字节数</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="172"/>
        <source>offloaded layers (+ output layer when n_gpu_layers &gt; layers) in the GGUF types, token_embd in CPU memory</source>
        <translation>卸载到 GPU 的层（n_gpu_layers &gt; 层数时加上输出层），按 GGUF 类型计，token_embd 留在 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="174"/>
        <source>Compute buffer</source>
        <translation>计算缓冲区</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="178"/>
        <source>F16 dequantisation scratch (CUDA pool)</source>
        <translation>F16 反量化暂存区（CUDA 内存池）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="179"/>
        <source>2 bytes x (the largest quantized matrix dequantized for cuBLAS + its ubatch input and output): the output layer over every prompt token before PR #6122</source>
        <translation>2 字节 ×（为 cuBLAS 反量化的最大量化矩阵 + 其 ubatch 输入与输出）：PR #6122 之前为输出层，覆盖每个提示词元</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="185"/>
        <source>n_ctx padded (256; 32 without flash attention in builds of 2024-05 to 2025-10) x offloaded layers x K and V per token in type_k/type_v (sliding layers: their window)</source>
        <translation>n_ctx 向上对齐（256；2024-05 至 2025-10 的版本在不开 flash attention 时按 32）× 卸载到 GPU 的层数 × 每个 token 的 K 和 V（按 type_k/type_v；滑动窗口层按其窗口）</translation>
    </message>
    <message>
        <source>max(f32 logits n_vocab x n_ubatch, scores 2 x n_ctx x n_ubatch x heads without flash attention, FFN) + residual</source>
        <translation type="vanished">max（f32 logits n_vocab × n_ubatch，无 flash attention 时的分数 2 × n_ctx × n_ubatch × 头数，FFN）+ 残差</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="175"/>
        <source>max(f32 logits n_vocab x n_ubatch, scores n_ctx x n_ubatch x heads without flash attention, FFN) + residual</source>
        <translation>max（f32 logits n_vocab × n_ubatch，无 flash attention 时的分数 n_ctx × n_ubatch × 头数，FFN）+ 残差</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="165"/>
        <source>0.75 GiB per process</source>
        <translation>每进程 0.75 GiB</translation>
    </message>
    <message>
        <source>n_ctx padded to 256 x offloaded layers x K and V per token in type_k/type_v (sliding layers: their window)</source>
        <translation type="vanished">n_ctx 补齐到 256 × 卸载层数 × 每个 token 的 K 和 V（按 type_k/type_v；滑动窗口层：其窗口）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="195"/>
        <source>{engine} fails to allocate its buffers: {need} per GPU, {capacity} available; offload fewer layers (n_gpu_layers), shorten n_ctx or quantize more.</source>
        <translation>{engine} 无法分配缓冲区：每块 GPU 需要 {need}，可用 {capacity}；请少卸载一些层（n_gpu_layers）、缩短 n_ctx 或进一步量化。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/llama_cpp.py" line="200"/>
        <source>{engine} loads with {free} free per GPU.</source>
        <translation>{engine} 加载后每块 GPU 剩余 {free}。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="60"/>
        <source>every tensor in the deployed format (/ the GPUs the layers are spread over)</source>
        <translation>部署格式下的全部张量（/ 各层分布到的 GPU 数）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="62"/>
        <source>every tensor in the deployed format</source>
        <translation>部署格式下的全部张量</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="64"/>
        <source>Prefill activations</source>
        <translation>预填充激活值</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="65"/>
        <source>residual + widest layer output of the prefill, + the last position&apos;s fp32 logits</source>
        <translation>预填充的残差 + 最宽层输出，加上最后一个位置的 fp32 logits</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="69"/>
        <source>0.75 GiB per process (none on Apple silicon)</source>
        <translation>每进程 0.75 GiB（Apple 芯片上没有）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="71"/>
        <source>sequences x tokens x KV bytes per token of every layer (sliding layers: their window)</source>
        <translation>序列数 × token 数 × 每层每个 token 的 KV 字节数（滑动窗口层：其窗口）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="77"/>
        <source>{engine} runs out of memory: {need} needed, {capacity} available.</source>
        <translation>{engine} 显存不足：需要 {need}，可用 {capacity}。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/plain_engines.py" line="81"/>
        <source>{engine} runs with {free} free.</source>
        <translation>{engine} 运行时剩余 {free}。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="65"/>
        <source>Layers kept in CPU memory run on the CPU and are not timed: the times are those of the offloaded layers alone.</source>
        <translation>留在 CPU 内存中的层在 CPU 上运行，不计时：所示时间仅为卸载到 GPU 的层。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="285"/>
        <source>Decode matmuls and attention</source>
        <translation>解码的矩阵乘与注意力</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="286"/>
        <source>(2 x active parameters / tp + attention) x sequences / achieved peak</source>
        <translation>（2 × 激活参数量 / tp + 注意力）× 序列数 / 可达峰值</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="288"/>
        <source>Decode weight and KV reads</source>
        <translation>解码时读取权重和 KV</translation>
    </message>
    <message>
        <source>(weights read + sequences x KV cache) / achieved memory bandwidth</source>
        <translation type="vanished">（读取的权重 + 序列数 × KV 缓存）/ 可达显存带宽</translation>
    </message>
    <message>
        <source>(weights read + sequences x KV cache) / achieved memory bandwidth; llama.cpp&apos;s quantized weights at one token at its mat-vec&apos;s measured share</source>
        <translation type="vanished">（读取的权重 + 序列数 × KV 缓存）/ 可达显存带宽；llama.cpp 的量化权重在单个 token 时按其矩阵向量乘的实测带宽占比读取</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="289"/>
        <source>(weights read + sequences x KV cache) / achieved memory bandwidth; a MoE&apos;s routed experts those its tokens pick, in vLLM and SGLang read at the triton fused_moe&apos;s tile share of it; llama.cpp&apos;s quantized weights at one token at its mat-vec&apos;s measured share</source>
        <translation>（读取的权重 + 序列数 × KV 缓存）/ 可达显存带宽；MoE 的路由专家只计其 token 选中的那些，在 vLLM 与 SGLang 中按 triton fused_moe 分块所能达到的该带宽份额读取；llama.cpp 的量化权重在单个 token 时按其矩阵向量乘的实测带宽占比读取</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="293"/>
        <source>Tensor-parallel all-reduces</source>
        <translation>张量并行 all-reduce</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="294"/>
        <source>2 per layer, ring over tp GPUs</source>
        <translation>每层 2 次，在 tp 块 GPU 上环形进行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="295"/>
        <source>Fixed time of each decode kernel</source>
        <translation>每个解码内核的固定时间</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="296"/>
        <source>layers x (GEMMs, attention and small kernels x each one&apos;s fixed time measured on H100), beyond the bytes they move</source>
        <translation>层数 x（GEMM、注意力和小内核 x 各自在 H100 上测得的固定时间），在其搬运字节的时间之外</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="298"/>
        <source>Host launches per decode step</source>
        <translation>每个解码步的主机内核启动</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="299"/>
        <source>layers x (kernel launches + module calls + views) issued from Python without CUDA graphs; the step is the longer of this and the GPU&apos;s</source>
        <translation>层数 x（内核启动 + 模块调用 + 视图），在没有 CUDA 图时由 Python 发出；每步取此项与 GPU 时间中较长者</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="301"/>
        <source>Engine loop per decode step</source>
        <translation>每个解码步的引擎循环</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="302"/>
        <source>vLLM V1&apos;s scheduling, input preparation, sampling and output update of each step (its calls&apos; measured CPU time, a fixed part + one per running request), in series with the forward</source>
        <translation>vLLM V1 每步的调度、输入准备、采样与输出更新（按这些调用实测的 CPU 时间：固定部分 + 每个运行中请求一份），与前向串行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="307"/>
        <source>New requests&apos; prefills</source>
        <translation>新请求的预填充</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="308"/>
        <source>(sequences - 1) x one prompt&apos;s prefill / (output tokens - 1): SGLang prefills each finished request&apos;s replacement ahead of the next decode step; vLLM V1 puts its chunks into decode steps, adding their compute beyond those steps&apos; idle compute</source>
        <translation>(序列数 - 1) x 一个提示的预填充 / (输出 token 数 - 1)：SGLang 在下一个解码步之前为每个完成请求的替换请求运行预填充；vLLM V1 把其分块放入解码步中，只增加超出这些步空闲算力的计算</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="320"/>
        <source>chunks of max_num_batched_tokens, each the longer of compute and weight reads, + all-reduces; llama.cpp: + the dequantization to F16 of builds before PR #8075, Metal&apos;s 32-row expert tiles, the K x Q kernel and tile decode of 2023 Metal builds; MLX: the whole 32- or 64-row tiles of its float matmul</source>
        <translation>按 max_num_batched_tokens 分块，每块取计算与读取权重中较长者，再加 all-reduce；llama.cpp：再加 PR #8075 之前的构建把权重反量化为 F16 的时间、Metal 专家矩阵乘按 32 行分块多算的部分，以及 2023 年 Metal 构建中 K x Q 核与分块解码的时间；MLX：其浮点矩阵乘按整块 32 或 64 行计算多算的部分</translation>
    </message>
    <message>
        <source>chunks of max_num_batched_tokens, each the longer of compute and weight reads, + all-reduces; llama.cpp: + the dequantization to F16 of builds before PR #8075, Metal&apos;s 32-row expert tiles, the K x Q kernel and tile decode of 2023 Metal builds</source>
        <translation type="vanished">按 max_num_batched_tokens 分块，每块取计算与读取权重中较长者，再加 all-reduce；llama.cpp：再加 PR #8075 之前的构建把权重反量化为 F16 的时间、Metal 专家矩阵乘按 32 行分块多算的部分，以及 2023 年 Metal 构建中 K x Q 核与分块解码的时间</translation>
    </message>
    <message>
        <source>chunks of max_num_batched_tokens, each the longer of compute and weight reads, + all-reduces; llama.cpp: + the dequantization to F16 of builds before PR #8075, Metal&apos;s 32-row expert tiles</source>
        <translation type="vanished">按 max_num_batched_tokens 分块，每块取计算与读取权重中较长者，再加 all-reduce；llama.cpp：再加 PR #8075 之前的构建把权重反量化为 F16 的时间，以及 Metal 专家矩阵乘按 32 行分块多算的部分</translation>
    </message>
    <message>
        <source>(sequences - 1) x one prompt&apos;s prefill / (output tokens - 1): each finished request&apos;s replacement prefills ahead of the next decode step</source>
        <translation type="vanished">(序列数 - 1) x 一个提示的预填充 / (输出 token 数 - 1)：每个完成的请求由新请求替换，其预填充在下一个解码步之前运行</translation>
    </message>
    <message>
        <source>vLLM V1&apos;s scheduling, input preparation and output update of each step (its calls&apos; measured CPU time, a fixed part + one per running request), in series with the forward</source>
        <translation type="vanished">vLLM V1 每步的调度、输入准备与输出更新（按这些调用实测的 CPU 时间：固定部分 + 每个运行中请求一份），与前向串行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="314"/>
        <source>MLA attention kernel</source>
        <translation>MLA 注意力内核</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="315"/>
        <source>sequences x cached tokens x layers x heads / tp x (2 x (kv_lora_rank + rope dim) + 2 x kv_lora_rank) FLOPs at the bf16 rate, or the latent cache read once per sequence, the longer; its own kernel after the weight reads</source>
        <translation>序列数 x 已缓存词元数 x 层数 x 头数 / tp x (2 x (kv_lora_rank + rope 维度) + 2 x kv_lora_rank) 次浮点运算按 bf16 速率计，或每个序列读取一次潜在缓存，取两者较长者；在权重读取之后作为独立内核运行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed.py" line="319"/>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>chunks of max_num_batched_tokens, each the longer of compute and weight reads, + all-reduces</source>
        <translation type="vanished">按 max_num_batched_tokens 分块，每块取计算与读取权重中较长者，再加 all-reduce</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="104"/>
        <source>Train on {train} of the {total} GPUs and run the generation engine on the other {n}, with {share:.0%} of each</source>
        <translation>在 {total} 块 GPU 中的 {train} 块上训练，让生成引擎运行在另外 {n} 块上，各占 {share:.0%}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="106"/>
        <source>Train on {train} of the {total} GPUs and run the generation engine on the other {n}, with {share:.0%} of each; accumulate {steps} steps to keep the global batch</source>
        <translation>在 {total} 块 GPU 中的 {train} 块上训练，让生成引擎运行在另外 {n} 块上，各占 {share:.0%}；梯度累积 {steps} 步以保持全局批次不变</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="109"/>
        <source>train on {train} of the {total} GPUs and run the generation engine on the other {n}, with {share:.0%} of each</source>
        <translation>在 {total} 块 GPU 中的 {train} 块上训练，让生成引擎运行在另外 {n} 块上，各占 {share:.0%}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="111"/>
        <source>no GPU added: the engine runs as a server on GPUs of its own, so the training GPUs hold none of its weights or KV cache; fewer GPUs train</source>
        <translation>不增加 GPU：引擎作为服务运行在它自己的 GPU 上，训练 GPU 不再存放它的权重和 KV 缓存；参与训练的 GPU 变少</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="167"/>
        <location filename="../../engine/planning/rl_suggest.py" line="172"/>
        <source>Give the generation engine {share:.0%} of each GPU instead of {old:.0%}</source>
        <translation>让生成引擎占用每块 GPU 的 {share:.0%}，而不是 {old:.0%}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="175"/>
        <location filename="../../engine/planning/rl_suggest.py" line="258"/>
        <source>a smaller KV cache: fewer sequences generated at once</source>
        <translation>KV 缓存变小：同时生成的序列更少</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="177"/>
        <source>Let the generation engine sleep while training (vLLM sleep level 2)</source>
        <translation>训练时让生成引擎休眠（vLLM 休眠级别 2）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="179"/>
        <source>the engine&apos;s weights are reloaded after each step: a little slower</source>
        <translation>每步之后要重新载入引擎权重：稍慢一些</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="183"/>
        <source>Run the generation engine on {n} GPUs of its own</source>
        <translation>让生成引擎运行在它自己的 {n} 块 GPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="185"/>
        <source>needs that many more GPUs</source>
        <translation>需要多出这么多块 GPU</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="194"/>
        <source>Score the reference with the adapters switched off</source>
        <translation>关闭适配器来计算参考模型</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="196"/>
        <source>the same reference, no second copy of the model</source>
        <translation>同样的参考模型，不需要第二份模型副本</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="198"/>
        <source>Compute the reference log-probs before training</source>
        <translation>在训练前算好参考对数概率</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="200"/>
        <source>one pass over the data first (TRL precompute_ref_log_probs)</source>
        <translation>先把数据过一遍（TRL precompute_ref_log_probs）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="202"/>
        <source>Compute log-probs with a fused kernel</source>
        <translation>用融合内核计算对数概率</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="204"/>
        <source>flash-attn&apos;s cross-entropy kernel, as verl and OpenRLHF use it</source>
        <translation>flash-attn 的交叉熵内核，verl 和 OpenRLHF 就是这样用的</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="218"/>
        <source>let the generation engine sleep while training (vLLM sleep level 2)</source>
        <translation>训练时让生成引擎休眠（vLLM 休眠级别 2）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="220"/>
        <source>score the reference with the adapters switched off</source>
        <translation>关闭适配器来计算参考模型</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="222"/>
        <source>compute the reference log-probs before training</source>
        <translation>在训练前算好参考对数概率</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="224"/>
        <source>compute log-probs with a fused kernel</source>
        <translation>用融合内核计算对数概率</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="225"/>
        <source>run the generation engine on {n} GPUs of its own</source>
        <translation>让生成引擎运行在它自己的 {n} 块 GPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="257"/>
        <location filename="../../engine/planning/rl_suggest.py" line="265"/>
        <source>give the generation engine {share:.0%} of each GPU</source>
        <translation>让生成引擎占用每块 GPU 的 {share:.0%}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="38"/>
        <source>TRL&apos;s command line has no trainer for the objective &apos;{objective}&apos;; pick grpo, rloo, dpo, ipo, kto or reward, or another format.</source>
        <translation>TRL 命令行没有训练目标“{objective}”的训练器；请选择 grpo、rloo、dpo、ipo、kto 或 reward，或选择其他格式。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="91"/>
        <source>The model&apos;s name holds characters a command line cannot carry; rename the model before exporting for TRL&apos;s vLLM server (trl vllm-serve).</source>
        <translation>模型名称含有命令行无法传递的字符；请先重命名模型，再导出给 TRL 的 vLLM 服务器（trl vllm-serve）。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="143"/>
        <source>TRL generates with vLLM or the model&apos;s own generate, not SGLang; choose rollout_engine vllm or none.</source>
        <translation>TRL 使用 vLLM 或模型自身的 generate 生成，不支持 SGLang；请将 rollout_engine 设为 vllm 或 none。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="158"/>
        <source>TRL&apos;s vLLM sleeps at level 2 only; choose rollout_sleep level-2 or none.</source>
        <translation>TRL 的 vLLM 只以 2 级休眠；请将 rollout_sleep 设为 level-2 或 none。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="167"/>
        <source>verl&apos;s main_ppo trains ppo, grpo and rloo, not &apos;{objective}&apos;; pick one of them or another format.</source>
        <translation>verl 的 main_ppo 训练 ppo、grpo 和 rloo，不支持“{objective}”；请选择其中之一或其他格式。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="171"/>
        <source>verl&apos;s hybrid engine generates with vLLM or SGLang on the training GPUs; choose one and rollout_placement colocate.</source>
        <translation>verl 的混合引擎在训练 GPU 上用 vLLM 或 SGLang 生成；请选择其一并将 rollout_placement 设为 colocate。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="177"/>
        <location filename="../../engine/configs/export_rl.py" line="240"/>
        <source>The model&apos;s name holds characters a command line cannot carry; rename the model before exporting for verl.</source>
        <translation>模型名称含有命令行无法传递的字符；请先重命名模型，再导出给 verl。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf.py" line="79"/>
        <source>the OpenRLHF trainer &apos;{name}&apos; is not an objective the planner models</source>
        <translation>OpenRLHF 训练器“{name}”不是规划器建模的训练目标</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf.py" line="85"/>
        <source>the advantage estimator &apos;{name}&apos; is not an objective the planner models (gae, group_norm, rloo are)</source>
        <translation>优势估计器“{name}”不是规划器建模的训练目标（支持 gae、group_norm、rloo）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf.py" line="152"/>
        <source>the deepspeed launcher is given no --num_gpus or --include, so it runs on every GPU of the node (deepspeed/launcher/runner.py); the accumulation steps are train_batch_size / (micro_train_batch_size x that GPU count), which the file does not give</source>
        <translation>未给 deepspeed 启动器 --num_gpus 或 --include，它会使用本节点的全部 GPU（deepspeed/launcher/runner.py）；梯度累积步数为 train_batch_size / (micro_train_batch_size x 该 GPU 数)，而文件中没有给出该数</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_model.py" line="144"/>
        <location filename="../../engine/configs/rl_common.py" line="45"/>
        <source>expected a fraction above 0 and at most 1, found {value!r}</source>
        <translation>应为大于 0 且不超过 1 的比例，实际为 {value!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="55"/>
        <source>the trainer &apos;{name}&apos; is not an objective the planner models</source>
        <translation>训练器“{name}”不是规划器建模的训练目标</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="136"/>
        <source>max_length less max_prompt_length: the completion&apos;s room in a pair</source>
        <translation>max_length 减去 max_prompt_length：一对样本中补全可用的长度</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="147"/>
        <source>vllm_mode server: the engine&apos;s GPUs are given to its own server command (trl vllm-serve), not in this file; one engine of the file&apos;s vllm_tensor_parallel_size, else 1 GPU, as vllm-serve starts by default</source>
        <translation>vllm_mode server：引擎的 GPU 写在它自己的服务命令（trl vllm-serve）里，不在此文件中；按一个引擎计，GPU 数为文件的 vllm_tensor_parallel_size，否则为 1 块 GPU，与 vllm-serve 默认启动方式相同</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="152"/>
        <source>vllm_mode server: the trainer does not read vllm_gpu_memory_utilization; the server&apos;s own --gpu_memory_utilization flag sets the engine&apos;s share (trl vllm-serve: 0.9 by default)</source>
        <translation>vllm_mode server：训练进程不读取 vllm_gpu_memory_utilization；引擎的显存份额由服务器自己的 --gpu_memory_utilization 参数决定（trl vllm-serve 默认 0.9）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="171"/>
        <source>vllm_mode &apos;{mode}&apos; is not colocate or server</source>
        <translation>vllm_mode“{mode}”既不是 colocate 也不是 server</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="199"/>
        <source>sleep_level must be 0, 1 or 2, not {value!r}</source>
        <translation>sleep_level 必须是 0、1 或 2，而不是 {value!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/trl.py" line="108"/>
        <source>TRL&apos;s GRPOConfig/DPOConfig default gradient_checkpointing true</source>
        <translation>TRL 的 GRPOConfig/DPOConfig 默认 gradient_checkpointing 为 true</translation>
    </message>
    <message>
        <location filename="../../engine/configs/trl.py" line="115"/>
        <source>the file holds {objective} settings (TRL configs do not name their trainer)</source>
        <translation>文件包含 {objective} 的设置（TRL 配置不写明其训练器）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl.py" line="48"/>
        <source>{value!r} is resolved by verl at launch; not read</source>
        <translation>{value!r} 由 verl 在启动时解析；未读取</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl.py" line="99"/>
        <source>verl&apos;s default actor strategy fsdp (ppo_trainer.yaml)</source>
        <translation>verl 默认的 actor 策略为 fsdp（ppo_trainer.yaml）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl.py" line="102"/>
        <source>verl loads the actor in fp32 and FSDP computes in bf16 (verl/workers/fsdp_workers.py)</source>
        <translation>verl 以 fp32 加载 actor，FSDP 以 bf16 计算（verl/workers/fsdp_workers.py）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl.py" line="105"/>
        <source>the {strategy} actor is not read yet; set its parallel layout in the planner</source>
        <translation>尚不读取 {strategy} actor；请在规划器中设置其并行布局</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl.py" line="131"/>
        <source>verl builds the actor with attn_implementation flash_attention_2 unless overridden</source>
        <translation>除非被覆盖，verl 以 attn_implementation flash_attention_2 构建 actor</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl.py" line="151"/>
        <source>verl&apos;s actor optimizer is torch.optim.AdamW</source>
        <translation>verl 的 actor 优化器是 torch.optim.AdamW</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="64"/>
        <source>verl&apos;s default algorithm.adv_estimator gae (PPO with a critic, ppo_trainer.yaml)</source>
        <translation>verl 默认 algorithm.adv_estimator 为 gae（带评论家模型的 PPO，ppo_trainer.yaml）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="69"/>
        <source>the advantage estimator &apos;{name}&apos; is not an objective the planner models (gae, grpo, rloo are)</source>
        <translation>优势估计器“{name}”不是规划器建模的训练目标（支持 gae、grpo、rloo）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="82"/>
        <source>the rollout engine &apos;{name}&apos; is not modelled</source>
        <translation>生成引擎“{name}”尚未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="97"/>
        <source>verl&apos;s hybrid engine runs the rollout on the actor&apos;s GPUs</source>
        <translation>verl 的混合引擎在 actor 的 GPU 上运行生成</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="116"/>
        <source>verl scores no reference unless use_kl_loss or use_kl_in_reward is true (both default false)</source>
        <translation>除非 use_kl_loss 或 use_kl_in_reward 为 true（两者默认均为 false），verl 不计算参考模型</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="126"/>
        <source>model &apos;{name}&apos; is not a preset; pick it in the planner</source>
        <translation>模型“{name}”不是预设；请在规划器中选择</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="179"/>
        <source>verl&apos;s critic pads its sequences unless critic.model.use_remove_padding is set (default False), whatever the actor&apos;s</source>
        <translation>除非设置 critic.model.use_remove_padding（默认 False），否则 verl 的 critic 会填充其序列，与 actor 的设置无关</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_measured.py" line="53"/>
        <source>Measured peak {measured} allocated; the plan&apos;s peak {planned} ({phase}).</source>
        <translation>实测峰值已分配 {measured}；计划峰值 {planned}（{phase}）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_measured.py" line="63"/>
        <source>{category}: measured {measured}, planned {planned}; the keys that would explain it: {keys}.</source>
        <translation>{category}：实测 {measured}，计划 {planned}；可解释此差异的键：{keys}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_measured.py" line="65"/>
        <source>{category}: measured {measured}, planned {planned}.</source>
        <translation>{category}：实测 {measured}，计划 {planned}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_measured.py" line="74"/>
        <source>Highest reading {measured} ({source}); the plan&apos;s process figure {planned}, of {capacity}.</source>
        <translation>最高读数 {measured}（{source}）；计划的进程占用 {planned}，显卡共 {capacity}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_measured.py" line="79"/>
        <source>The reading is {diff} {direction} the plan: calibrate this machine with memory_calibration (main.py calibrate SCENARIO nvidia_smi {bytes}).</source>
        <translation>读数与计划相差 {diff}（{direction}）：请用 memory_calibration 校准这台机器（main.py calibrate SCENARIO nvidia_smi {bytes}）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_measured.py" line="82"/>
        <source>above</source>
        <translation>高于</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_measured.py" line="82"/>
        <source>below</source>
        <translation>低于</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="28"/>
        <source>loading</source>
        <translation>加载</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="28"/>
        <source>forward pass</source>
        <translation>前向传播</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="29"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="29"/>
        <source>backward pass</source>
        <translation>反向传播</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="30"/>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="32"/>
        <source>activations grow with the longest sequence of a batch (padding) and when checkpointing is not in effect</source>
        <translation>激活值随批内最长序列（填充）增大，且在检查点未生效时增大</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="34"/>
        <source>temporaries: the batch&apos;s logits, the optimizer step&apos;s copies</source>
        <translation>临时张量：整批的 logits、优化器步的副本</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="35"/>
        <source>states not sharded or offloaded as the plan assumes</source>
        <translation>状态未按计划假设进行切分或卸载</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="52"/>
        <source>The plan: {verdict} ({room}).</source>
        <translation>计划：{verdict}（{room}）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="56"/>
        <source>The message&apos;s GPU has {measured} in all, the scenario&apos;s card {planned}: is the scenario&apos;s gpu the one that ran?</source>
        <translation>报错中的 GPU 共 {measured}，场景中的显卡为 {planned}：场景的 gpu 是实际运行的那块吗？</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="77"/>
        <source>The traceback shows AdamW adding eps out of place (torch._foreach_add(exp_avg_sq_sqrt, eps)), as PyTorch before 2.1 does: one more state-sized temporary at the optimizer step, {extra} here. Set pytorch_version to 2.0 to plan it, or upgrade PyTorch.</source>
        <translation>回溯显示 AdamW 以非原地方式加上 eps（torch._foreach_add(exp_avg_sq_sqrt, eps)），这是 PyTorch 2.1 之前的做法：优化器步骤多一个与状态同样大小的临时张量，此处为 {extra}。将 pytorch_version 设为 2.0 即可纳入计划，或升级 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="88"/>
        <source>At the {phase} the run had {allocated} allocated and asked for {tried} more: at least {demand}; the plan allocates {plan} there.</source>
        <translation>在{phase}时，运行已分配 {allocated}，又请求 {tried}：至少需要 {demand}；计划在此处分配 {plan}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="92"/>
        <source>At the {phase} the run had {allocated} allocated (the message does not say how much more it asked for); the plan allocates {plan} there.</source>
        <translation>在{phase}时，运行已分配 {allocated}（消息未说明又请求了多少）；计划在此处分配 {plan}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="181"/>
        <source>Fix: {change} frees {saving}; the plan then: {verdict}.</source>
        <translation>修复：{change} 可释放 {saving}；之后计划：{verdict}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="183"/>
        <source>Fix: {change} frees {saving}, less than the missing {short}; the plan then: {verdict}.</source>
        <translation>修复：{change} 可释放 {saving}，少于所缺的 {short}；之后计划：{verdict}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="186"/>
        <source>Fix: {change} frees {saving}, which covers the missing {short}, but the plan still does not fit ({room}).</source>
        <translation>修复：{change} 可释放 {saving}，足以补上所缺的 {short}，但计划仍然放不下（{room}）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="188"/>
        <source>Fix: {change} frees {saving}, which covers the missing {short}; the plan then: {verdict}.</source>
        <translation>修复：{change} 可释放 {saving}，足以补上所缺的 {short}；之后计划：{verdict}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/below_plan.py" line="18"/>
        <source>The plan agrees with the run there (within {margin:.0%}): it predicts this failure, and the changes below make room.</source>
        <translation>计划与运行在此处一致（相差不超过 {margin:.0%}）：计划预言了这次失败，下列修改可腾出空间。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/below_plan.py" line="22"/>
        <source>The run failed at {demand}, on its way to the {plan} the plan allocates there: the plan predicts this failure, and the changes below make room.</source>
        <translation>运行在 {demand} 时失败，尚未达到计划在此处分配的 {plan}：计划预言了这次失败，下列修改可腾出空间。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/below_plan.py" line="25"/>
        <source>The run failed at {demand}, below the {plan} the plan allocates there, although the plan fits: something the plan does not count held the rest of the GPU (another process, or memory outside PyTorch&apos;s allocator).</source>
        <translation>运行在 {demand} 时失败，低于计划在此处分配的 {plan}，而计划是放得下的：GPU 的其余显存被计划未计入的东西占用了（另一个进程，或 PyTorch 分配器之外的显存）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="101"/>
        <source>{excess} more than the plan while loading: the whole model was on each GPU before it was sharded (load in shards: zero_stage 3 / FSDP with sharded loading).</source>
        <translation>加载时比计划多 {excess}：切分前每块 GPU 上都有整个模型（请分片加载：zero_stage 3 / FSDP 分片加载）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/against_plan.py" line="106"/>
        <source>{excess} more than the plan. Most likely grown past it: {component} (planned {planned}); {why}.</source>
        <translation>比计划多 {excess}。最可能超出计划的是：{component}（计划 {planned}）；{why}。</translation>
    </message>
    <message>
        <source>Fix: {change} frees {saving}, enough for what was missing; the plan then: {verdict}.</source>
        <translation type="vanished">修复：{change} 可释放 {saving}，足以补上缺口；之后计划：{verdict}。</translation>
    </message>
    <message>
        <source>Fix: {change} frees {saving}, less than was missing; the plan then: {verdict}.</source>
        <translation type="vanished">修复：{change} 可释放 {saving}，少于缺口；之后计划：{verdict}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="36"/>
        <source>The measured figure must be bytes, or a number with GiB, MiB, GB or MB.</source>
        <translation>实测值必须是字节数，或带 GiB、MiB、GB、MB 单位的数字。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="50"/>
        <source>Measured {measured} against {predicted} predicted ({figure}).</source>
        <translation>实测 {measured}，预测 {predicted}（{figure}）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="53"/>
        <source>Peak allocated is the memory model&apos;s own figure, not an overhead: the {diff} difference is shown, nothing is fitted.</source>
        <translation>峰值已分配是显存模型自身的数值，不是开销：只显示 {diff} 的差异，不做拟合。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="59"/>
        <source>{overhead}: {old} -&gt; {new}; the plan: {verdict} ({total} per GPU, was {was}).</source>
        <translation>{overhead}：{old} -&gt; {new}；计划：{verdict}（每块 GPU {total}，原为 {was}）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="65"/>
        <source>{n} of {total} saved plans are now tight.</source>
        <translation>{total} 个已保存计划中有 {n} 个现在偏紧。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="66"/>
        <source>{n} of {total} saved plans now do not fit.</source>
        <translation>{total} 个已保存计划中有 {n} 个现在放不下。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="67"/>
        <source>{n} of {total} saved plans now fit.</source>
        <translation>{total} 个已保存计划中有 {n} 个现在放得下。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="77"/>
        <source>The figure must be one of {choices}.</source>
        <translation>测量项必须是以下之一：{choices}。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/calibration.py" line="80"/>
        <source>is inference: calibrate fits a training run&apos;s allocator overheads; a served model&apos;s memory is its engine&apos;s own accounting (set gpu_memory_utilization or the KV cache as the engine logs it).</source>
        <translation>为推理：calibrate 拟合的是训练任务的分配器开销；部署模型的显存由推理引擎自己核算（请按引擎日志设置 gpu_memory_utilization 或 KV 缓存）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="55"/>
        <source>Fragmentation: {unallocated} was reserved by PyTorch but unallocated, more than the {tried} it asked for, so the cache was in pieces too small to use. PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True lets segments grow instead (scenario key expandable_segments: true).</source>
        <translation>碎片化：PyTorch 已预留但未分配 {unallocated}，多于请求的 {tried}，说明缓存被切成了用不上的小块。设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True 可让段增长而不是切分（场景键 expandable_segments: true）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="62"/>
        <source>One tensor of {tried} was asked for, more than the whole card ({total}): something is materialised whole (eager attention scores, the logits of the whole batch, an image batch).</source>
        <translation>请求了一个 {tried} 的张量，超过整张卡（{total}）：有东西被整体实体化了（eager 注意力分数、整批的 logits、一批图像）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="67"/>
        <source>The GPU had {free} free, more than the {tried} asked for: the allocation was refused for another reason (a per-process memory fraction, another process allocating at the same moment, or the driver&apos;s own limits).</source>
        <translation>GPU 有 {free} 空闲，多于请求的 {tried}：分配因其他原因被拒绝（进程显存比例限制、另一进程同时分配，或驱动自身的限制）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="72"/>
        <source>PyTorch was allowed only {allowed} of the card&apos;s {total} (torch.cuda.set_per_process_memory_fraction).</source>
        <translation>PyTorch 只被允许使用显卡 {total} 中的 {allowed}（torch.cuda.set_per_process_memory_fraction）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="78"/>
        <source>Other processes held {others} of this GPU (other ranks&apos; CUDA contexts on this device, another job or the display); each rank should use only its own GPU (LOCAL_RANK).</source>
        <translation>其他进程占用了这块 GPU 的 {others}（其他 rank 在此设备上的 CUDA 上下文、另一个任务或显示输出）；每个 rank 应只使用自己的 GPU（LOCAL_RANK）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="84"/>
        <source>This process held {outside} outside PyTorch&apos;s allocator: the CUDA context, cuBLAS and NCCL workspaces.</source>
        <translation>本进程在 PyTorch 分配器之外占用了 {outside}：CUDA 上下文、cuBLAS 和 NCCL 工作区。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="88"/>
        <source>At least {short} more was needed at that moment ({tried} asked for, {free} free); the step&apos;s peak may be higher still.</source>
        <translation>当时至少还需要 {short}（请求 {tried}，空闲 {free}）；该步的峰值可能更高。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="96"/>
        <source>The CUDA runtime itself ran out of memory, outside PyTorch&apos;s allocator (NCCL, cuBLAS, CUDA graphs or an extension): the message has no figures; leave more memory outside PyTorch.</source>
        <translation>CUDA 运行时本身在 PyTorch 分配器之外耗尽了显存（NCCL、cuBLAS、CUDA 图或扩展）：报错中没有数字；请在 PyTorch 之外留出更多显存。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="100"/>
        <source>Accelerate&apos;s batch-size finder halved the batch after each out-of-memory error down to zero: even one sequence per GPU does not fit.</source>
        <translation>Accelerate 的批大小查找在每次显存不足后把批减半，直到为零：每块 GPU 连一条序列都放不下。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/from_message.py" line="104"/>
        <source>DeepSpeed reports {n} allocator cache flushes in one step: memory is nearly full and the cache is emptied to go on (slow, and close to an out-of-memory error).</source>
        <translation>DeepSpeed 报告一步内有 {n} 次分配器缓存清空：显存几乎已满，靠清空缓存才能继续（很慢，且接近显存不足）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/gpu_logs.py" line="63"/>
        <source>This log has more than {limit} rows; it is not read.</source>
        <translation>此日志超过 {limit} 行，未读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/gpu_logs.py" line="67"/>
        <source>This log cannot be read as CSV: a row is broken or a cell is longer than 131,072 characters.</source>
        <translation>此日志无法按 CSV 读取：某一行已损坏，或某个单元格超过 131,072 个字符。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/gpu_logs.py" line="83"/>
        <source>This log has no GPU memory column (nvidia-smi memory.used or W&amp;B gpu.N.memoryAllocatedBytes).</source>
        <translation>此日志没有 GPU 显存列（nvidia-smi 的 memory.used 或 W&amp;B 的 gpu.N.memoryAllocatedBytes）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="11"/>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="11"/>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="12"/>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="12"/>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="13"/>
        <source>logits</source>
        <translation>logits</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="13"/>
        <source>temporaries</source>
        <translation>临时张量</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="14"/>
        <source>allocator cache</source>
        <translation>分配器缓存</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/measured.py" line="14"/>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/memory_timeline.py" line="25"/>
        <source>This file is not a memory timeline: export it with export_memory_timeline to a .json file.</source>
        <translation>此文件不是显存时间线：请用 export_memory_timeline 导出为 .json 文件。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/memory_timeline.py" line="32"/>
        <source>The HTML memory timeline holds only a picture of the plot; export it to a .json file to read its figures.</source>
        <translation>HTML 显存时间线只包含图片；请导出为 .json 文件以读取数值。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/memory_timeline.py" line="35"/>
        <source>This file is larger than {limit} MB; it is not read.</source>
        <translation>此文件大于 {limit} MB，未读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/oom_text.py" line="110"/>
        <source>No out-of-memory message was found in this text: paste the error PyTorch printed (it contains &quot;out of memory&quot;).</source>
        <translation>文本中没有找到显存不足报错：请粘贴 PyTorch 打印的错误（其中包含 &quot;out of memory&quot;）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/oom_text.py" line="117"/>
        <source>This text is longer than {limit} characters, more than an error message or log; paste the part with the error.</source>
        <translation>此文本超过 {limit} 个字符，比报错或日志还长；请只粘贴含错误的部分。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/oom_text.py" line="199"/>
        <source>The driver did not report a process&apos;s memory (it printed an impossible figure, as under WSL); it is left out.</source>
        <translation>驱动没有报告某个进程的显存（打印了不可能的数值，WSL 下常见）；已忽略。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="45"/>
        <source>This snapshot is larger than {limit} MB; it is not read.</source>
        <translation>此快照大于 {limit} MB，未读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="48"/>
        <source>This is not a memory snapshot: a snapshot is a pickle of protocol 2 to 5, as torch.cuda.memory._dump_snapshot writes.</source>
        <translation>这不是显存快照：快照是协议 2 到 5 的 pickle，由 torch.cuda.memory._dump_snapshot 写出。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="54"/>
        <source>This snapshot asks to build Python objects other than plain data (a snapshot never does); it is refused unread.</source>
        <translation>此快照要求构建纯数据以外的 Python 对象（真正的快照从不如此）；已拒绝，未读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="65"/>
        <source>This snapshot is damaged or cut short; it cannot be read.</source>
        <translation>此快照已损坏或被截断，无法读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="82"/>
        <source>This snapshot is nested more than {limit} deep, which no snapshot is; it is not read.</source>
        <translation>此快照嵌套超过 {limit} 层，真正的快照不会如此；未读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="86"/>
        <source>This snapshot holds more than {limit} items; it is not read.</source>
        <translation>此快照包含超过 {limit} 个条目，未读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="99"/>
        <source>This snapshot holds something other than plain data; it is not read.</source>
        <translation>此快照包含纯数据以外的内容，未读取。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/plain_pickle.py" line="103"/>
        <source>Reading this file took longer than {seconds:.0f} s; it is set aside.</source>
        <translation>读取此文件超过 {seconds:.0f} 秒，已放弃。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/snapshot.py" line="93"/>
        <source>This pickle is not a memory snapshot: it has no segments and device traces.</source>
        <translation>此 pickle 不是显存快照：没有 segments 和 device traces。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/snapshot.py" line="97"/>
        <source>This snapshot has more than {limit} trace events; record fewer (max_entries).</source>
        <translation>此快照有超过 {limit} 个跟踪事件；请少记录一些（max_entries）。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/snapshot.py" line="193"/>
        <source>{bytes} bytes were allocated before recording began; they count as other.</source>
        <translation>开始记录前已分配 {bytes} 字节；计入“其他”。</translation>
    </message>
    <message>
        <location filename="../../engine/memory/mtp.py" line="33"/>
        <source>Multi-token prediction layers (Megatron MTP)</source>
        <translation>多 token 预测层（Megatron MTP）</translation>
    </message>
    <message>
        <location filename="../../engine/memory/mtp.py" line="36"/>
        <source>MTP layers x (one decoder layer + enorm/hnorm + eh_proj input (2h) + output layer inputs + its loss&apos;s saved tensors), one micro-batch</source>
        <translation>MTP 层数 ×（一个解码层 + enorm/hnorm + eh_proj 输入 (2h) + 输出层输入 + 其损失保存的张量），一个微批次</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="16"/>
        <source>has no speed figures (peak FLOP/s or memory bandwidth), so its time is not known</source>
        <translation>缺少速度数据（峰值 FLOP/s 或显存带宽），无法估算时间</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="17"/>
        <source>does not fit: no layout of the same training holds it</source>
        <translation>放不下：同样的训练没有任何布局能装下</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="18"/>
        <source>does not fit: no layout holds it in the GPUs and {host} of CPU memory per node</source>
        <translation>放不下：没有布局能在这些 GPU 和每节点 {host} 的 CPU 内存中装下</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="20"/>
        <source>does not fit: no layout holds it in the GPUs and the CPU memory of the rented node: {basis}</source>
        <translation>放不下：没有任何布局能装进所租节点的 GPU 和 CPU 内存：{basis}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="22"/>
        <source>cannot run it: {why}</source>
        <translation>无法运行：{why}</translation>
    </message>
    <message>
        <source>misses the deadline by {late} even at MFU {mfu:.0%}, the best a published run reached on this GPU</source>
        <translation type="vanished">即使达到该 GPU 上已发表运行的最佳 MFU {mfu:.0%}，仍超出截止期限 {late}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="26"/>
        <source>misses the deadline by {late} even at the GPU&apos;s full peak FLOP/s</source>
        <translation>即使以该 GPU 的全部峰值 FLOP/s 运行，仍超出截止期限 {late}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="27"/>
        <source>misses the deadline by {late}</source>
        <translation>超出截止期限 {late}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="28"/>
        <source>over budget by {over}</source>
        <translation>超出预算 {over}</translation>
    </message>
    <message>
        <source>over budget by {over} even at MFU {mfu:.0%}, the best a published run reached on this GPU</source>
        <translation type="vanished">即使达到该 GPU 上已发表运行的最佳 MFU {mfu:.0%}，仍超出预算 {over}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="23"/>
        <source>misses the deadline by {late} even at MFU {mfu:.0%} (attention counted whole, as the published runs&apos; ceiling was measured), the best a published run reached on this GPU</source>
        <translation>即使达到该 GPU 上已发表运行的最佳 MFU {mfu:.0%}（注意力全量计入，与已发表运行的上限计法相同），仍超出截止期限 {late}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="29"/>
        <source>over budget by {over} even at MFU {mfu:.0%} (attention counted whole, as the published runs&apos; ceiling was measured), the best a published run reached on this GPU</source>
        <translation>即使达到该 GPU 上已发表运行的最佳 MFU {mfu:.0%}（注意力全量计入，与已发表运行的上限计法相同），仍超出预算 {over}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="32"/>
        <source>over budget by {over} even at the GPU&apos;s full peak FLOP/s</source>
        <translation>即使以该 GPU 的全部峰值 FLOP/s 运行，仍超出预算 {over}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="33"/>
        <source>misses the deadline by {late} even in its fastest layout, memory aside</source>
        <translation>即使采用最快的布局（不计显存），仍超出截止期限 {late}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="34"/>
        <source>over budget by {over} even in its fastest layout, memory aside</source>
        <translation>即使采用最快的布局（不计显存），仍超出预算 {over}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="35"/>
        <source>costs at least {least} even in its fastest layout: no cheaper than fewer GPUs of this type</source>
        <translation>即使采用最快的布局也至少花费 {least}：不比更少的同型号 GPU 便宜</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="37"/>
        <source>costs at least {least} even in its fastest layout: more than the {rows} cheapest options found</source>
        <translation>即使采用最快的布局也至少花费 {least}：高于已找到的 {rows} 个最便宜方案</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="39"/>
        <source>misses the deadline: no layout that fits is fast enough</source>
        <translation>超出截止期限：没有放得下的布局足够快</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="40"/>
        <source>over budget: no layout that fits is fast enough to stay within it</source>
        <translation>超出预算：没有放得下的布局快到能控制在预算内</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="41"/>
        <source>no layout that fits costs less than the options found before it</source>
        <translation>没有放得下的布局比之前找到的方案更便宜</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="42"/>
        <source>no price per GPU-hour is set for this GPU, so its cost is not known</source>
        <translation>此 GPU 未设每 GPU 小时价格，无法得知费用</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="44"/>
        <source>takes more than {time} even at MFU {mfu:.0%} (attention counted whole, as the published runs&apos; ceiling was measured), the best a published run reached on this GPU: beyond a year, impractical (no deadline set)</source>
        <translation>即使按 MFU {mfu:.0%}（公开实测在此 GPU 上达到的最好水平；注意力全量计入，与已发表运行的上限计法相同）也要超过 {time}：超过一年，不切实际（未设截止时间）</translation>
    </message>
    <message>
        <source>takes more than {time} even at MFU {mfu:.0%}, the best a published run reached on this GPU: beyond a year, impractical (no deadline set)</source>
        <translation type="vanished">即使按 MFU {mfu:.0%}（公开实测在此 GPU 上达到的最好水平）也要超过 {time}：超过一年，不切实际（未设截止时间）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="48"/>
        <source>takes more than {time} even at the GPU&apos;s full peak FLOP/s: beyond a year, impractical (no deadline set)</source>
        <translation>即使按 GPU 的满峰值 FLOP/s 也要超过 {time}：超过一年，不切实际（未设截止时间）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="50"/>
        <source>takes more than {time} even in its fastest layout, memory aside: beyond a year, impractical (no deadline set)</source>
        <translation>即使用最快的布局（不计显存）也要超过 {time}：超过一年，不切实际（未设截止时间）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="52"/>
        <source>trains in {time}: beyond a year, impractical (no deadline set)</source>
        <translation>训练需 {time}：超过一年，不切实际（未设截止时间）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_reasons.py" line="53"/>
        <source>no layout that fits trains it within a year: impractical (no deadline set)</source>
        <translation>没有放得下的布局能在一年内训练完：不切实际（未设截止时间）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent.py" line="148"/>
        <source>{adapters} adapter parameters x ({weight} B weight + {master} B master + {states} B optimizer states)</source>
        <translation>{adapters} 个适配器参数 × （{weight} B 权重 + {master} B 主权重 + {states} B 优化器状态）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent.py" line="150"/>
        <source>{weights} weights x {weight} B + {trained} trained parameters x ({master} B master + {states} B optimizer states)</source>
        <translation>{weights} 个权重 × {weight} B + {trained} 个训练的参数 × （{master} B 主权重 + {states} B 优化器状态）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent.py" line="333"/>
        <source>is needed to compare what to rent: set how many tokens the whole run trains on.</source>
        <translation>比较该租什么时必需：请设置整个训练的 token 数。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent.py" line="336"/>
        <source>is inference: what to rent is worked out for training runs.</source>
        <translation>是推理：“该租什么”只针对训练任务计算。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="32"/>
        <source>A price list is a JSON object {&quot;currency&quot;: &quot;USD&quot;, &quot;prices&quot;: {&quot;GPU id&quot;: price per GPU-hour}}.</source>
        <translation>价格表是一个 JSON 对象 {&quot;currency&quot;: &quot;USD&quot;, &quot;prices&quot;: {&quot;GPU id&quot;: 每 GPU 小时价格}}。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="36"/>
        <source>The price list&apos;s currency must be one of {codes}.</source>
        <translation>价格表的货币必须是以下之一：{codes}。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="42"/>
        <source>The price list names {gpu}, which is not a GPU preset (see `presets gpus`).</source>
        <translation>价格表中的 {gpu} 不是 GPU 预设（见 `presets gpus`）。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="46"/>
        <source>The price of {gpu} must be a number above 0 and at most {most:,.0f} per GPU-hour.</source>
        <translation>{gpu} 的价格必须是大于 0 且不超过每 GPU 小时 {most:,.0f} 的数。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="58"/>
        <source>The price list {name} cannot be read ({why}).</source>
        <translation>无法读取价格表 {name}（{why}）。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="63"/>
        <source>The price list {name} is not JSON.</source>
        <translation>价格表 {name} 不是 JSON。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="92"/>
        <source>Its slow end runs past the deadline.</source>
        <translation>其较慢一端会超过截止期限。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_report.py" line="93"/>
        <source>Its slow end costs more than the budget.</source>
        <translation>其较慢一端的费用会超出预算。</translation>
    </message>
    <message>
        <source>its slow end runs past the deadline.</source>
        <translation type="vanished">其较慢一端会超过截止期限。</translation>
    </message>
    <message>
        <source>its slow end costs more than the budget.</source>
        <translation type="vanished">其较慢一端的费用会超出预算。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="77"/>
        <source>Deploy the weights as {fmt}</source>
        <translation>把权重部署为 {fmt}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="78"/>
        <source>a quantized checkpoint: usually a small quality loss, 4-bit and below more</source>
        <translation>量化的检查点：通常质量略有损失，4 位及以下损失更多</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="91"/>
        <source>Store the KV cache as {dtype}</source>
        <translation>把 KV 缓存存为 {dtype}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="92"/>
        <source>half the KV bytes per token: twice the context or users; a small accuracy cost</source>
        <translation>每个 token 的 KV 字节减半：上下文或用户数翻倍；精度略有代价</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="114"/>
        <source>Serve on {gpus} GPUs</source>
        <translation>在 {gpus} 个 GPU 上提供服务</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="111"/>
        <source>layers split over the GPUs: each GPU holds a share of the weights</source>
        <translation>按层拆分到各 GPU：每个 GPU 持有一部分权重</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="112"/>
        <source>tensor parallel: each GPU holds a share of every layer&apos;s weights; needs fast links between the GPUs</source>
        <translation>张量并行：每个 GPU 持有每一层权重的一部分；需要 GPU 之间的高速互连</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="130"/>
        <source>Shorten the context to {tokens} tokens</source>
        <translation>把上下文缩短到 {tokens} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="132"/>
        <source>longer prompts and answers are refused</source>
        <translation>更长的提示和回答会被拒绝</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="158"/>
        <source>Decode at most {count} sequences at once</source>
        <translation>最多同时解码 {count} 条序列</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="159"/>
        <source>fewer users served together; the rest wait in the queue</source>
        <translation>同时服务的用户更少；其余的在队列中等待</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="165"/>
        <source>Run without CUDA graphs (enforce eager)</source>
        <translation>不用 CUDA 图运行（enforce eager）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="167"/>
        <source>frees the graphs&apos; memory; decoding small batches is slower</source>
        <translation>释放 CUDA 图的显存；小批量解码更慢</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="173"/>
        <source>Let vLLM use {share} of each GPU</source>
        <translation>让 vLLM 使用每个 GPU 的 {share}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="175"/>
        <source>more: less room for other processes; less: a smaller KV cache</source>
        <translation>更多：留给其他进程的空间更少；更少：KV 缓存更小</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="192"/>
        <source>Keep {cpu} of {layers} layers in CPU memory (n_gpu_layers {gpu})</source>
        <translation>把 {layers} 层中的 {cpu} 层留在 CPU 内存中（n_gpu_layers {gpu}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="194"/>
        <source>the CPU computes those layers: decoding is many times slower</source>
        <translation>这些层由 CPU 计算：解码慢很多倍</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="213"/>
        <source>Serve on {gpus} GPUs as {fmt} with {tokens} tokens of context, without CUDA graphs</source>
        <translation>在 {gpus} 个 GPU 上以 {fmt} 提供服务，上下文 {tokens} 个 token，不用 CUDA 图</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="215"/>
        <source>Serve on {gpus} GPUs as {fmt} with {tokens} tokens of context</source>
        <translation>在 {gpus} 个 GPU 上以 {fmt} 提供服务，上下文 {tokens} 个 token</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_suggest.py" line="218"/>
        <source>several changes at once: the smallest set found that starts the engine</source>
        <translation>同时做几处修改：找到的能让引擎启动的最小修改组合</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/memory_keys.py" line="52"/>
        <source>must be 1, 2 or &quot;auto&quot;, not {p!r}.</source>
        <translation>必须为 1、2 或 &quot;auto&quot;，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/memory_keys.py" line="71"/>
        <source>must be &quot;auto&quot; or a whole number from 0 to 64, not {p!r}.</source>
        <translation>必须为 &quot;auto&quot; 或 0 到 64 之间的整数，而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/pipeline_layout.py" line="51"/>
        <source>must be a Megatron pipeline layout: chunks of E (embedding, first), t (decoder layer), m (MTP layer, after every t) and L (loss, last) separated by &quot;|&quot;, with (...)*n and t*n repeats, e.g. &quot;Et*4|(t*4|)*14tmL&quot;, or &quot;&quot; for none; not {p!r}.</source>
        <translation>必须是 Megatron 流水线布局：由 &quot;|&quot; 分隔的块，块中有 E（嵌入，最前）、t（解码层）、m（MTP 层，在所有 t 之后）和 L（损失，最后），可用 (...)*n 和 t*n 表示重复，例如 &quot;Et*4|(t*4|)*14tmL&quot;；&quot;&quot; 表示不用布局；而不是 {p!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/memory_keys.py" line="157"/>
        <source>must be {{&quot;figure&quot;: F, &quot;measured_bytes&quot;: M, &quot;predicted_bytes&quot;: P}} or null.</source>
        <translation>必须是 {{&quot;figure&quot;: F, &quot;measured_bytes&quot;: M, &quot;predicted_bytes&quot;: P}} 或 null。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/memory_keys.py" line="160"/>
        <source>figure must be one of {choices}.</source>
        <translation>figure 必须是以下之一：{choices}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/memory_keys.py" line="164"/>
        <source>the measured and predicted figures must each be whole bytes from {low:,} (1 MiB) to {high:,} (1 PiB).</source>
        <translation>实测值和预测值都必须是 {low:,}（1 MiB）到 {high:,}（1 PiB）之间的整数字节。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/memory_keys.py" line="167"/>
        <source>the measured figure is more than {limit:g} times off the predicted one: it was measured on another set-up, or in other units.</source>
        <translation>实测值与预测值相差超过 {limit:g} 倍：它是在另一套配置上、或用其他单位测得的。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="19"/>
        <source>memory-bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="20"/>
        <source>compute</source>
        <translation>算力</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="21"/>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="24"/>
        <source>A million output tokens cost {cost} on {n:,} GPUs</source>
        <translation>在 {n:,} 块 GPU 上，一百万个输出 token 的成本为 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="50"/>
        <source>These are one engine instance&apos;s figures: the {n} instances of this set-up serve {users} users at once together, {tps} tokens/s.</source>
        <translation>以上是单个引擎实例的数字：此配置的 {n} 个实例合计同时服务 {users} 个用户，每秒 {tps} 个 token。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="69"/>
        <source>The first token is that of a request arriving while the others generate; if all {users} send at once, the server processes their prompts one slot after another and the last waits up to about {wait} ({users} prefills and one step).</source>
        <translation>首个 token 用时是在其他用户生成期间到达的一个请求的用时；若 {users} 个用户同时发送，服务器按槽位逐个处理其提示词，最后一个用户最多约等待 {wait}（{users} 次预填充加一步）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="86"/>
        <source>Running all the time, the GPUs cost {cost} a month ({n:,} x {price} x {hours} hours)</source>
        <translation>全天候运行时，GPU 每月花费 {cost}（{n:,} × {price} × {hours} 小时）</translation>
    </message>
    <message>
        <source>A million output tokens cost {cost} on {n} GPUs</source>
        <translation type="vanished">在 {n} 块 GPU 上，一百万个输出 token 的成本为 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="25"/>
        <source>A million output tokens cost {cost} on one GPU</source>
        <translation>在 1 块 GPU 上，一百万个输出 token 的成本为 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="26"/>
        <source>{line} (likely {low} to {high}, as the tokens/s range)</source>
        <translation>{line}（可能为 {low} 至 {high}，按每秒 token 数的范围推算）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="29"/>
        <source>{line} by the model&apos;s estimate (likely {low} to {high}, above it, as the tokens/s range)</source>
        <translation>{line}（模型估算值；可能为 {low} 至 {high}，高于估算值，按每秒 token 数的范围推算）</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="31"/>
        <source>{line} by the model&apos;s estimate (likely {low} to {high}, below it, as the tokens/s range)</source>
        <translation>{line}（模型估算值；可能为 {low} 至 {high}，低于估算值，按每秒 token 数的范围推算）</translation>
    </message>
    <message>
        <source>The speed is one engine instance&apos;s; the {n} instances (one a tensor x pipeline parallel group) serve {users:,} sequences at {tps} tokens/s in all</source>
        <translation type="vanished">以上速度为单个引擎实例的速度；{n} 个实例（每个为一个张量 × 流水线并行组）合计服务 {users:,} 个序列，共 {tps} tokens/s</translation>
    </message>
    <message>
        <location filename="../../engine/serving/report.py" line="111"/>
        <source>{cost} (in the price&apos;s currency)</source>
        <translation>{cost}（按价格所用货币计）</translation>
    </message>
    <message>
        <source>MFU = model FLOPs per second / (GPUs x dense peak of the compute format: fp8&apos;s for fp8 training). Model FLOPs per token = 6 x (active parameters without the input embedding) + 12 x layers x attention width x sequence length (causal masking and recomputation not discounted or added), as Megatron-LM, torchtitan and llm-foundry count them; frozen weights (LoRA, QLoRA, frozen layers) count no weight gradient (2 of the 6), and layers no gradient flows through count no backward at all. Multi-token-prediction layers that Megatron trains add each one&apos;s decoder layer, 2h -&gt; h projection and output layer, as Megatron-Bridge counts them.</source>
        <translation type="vanished">MFU = 每秒模型 FLOPs /（GPU 数 × 计算格式的稠密峰值：fp8 训练按 fp8 峰值计）。每个 token 的模型 FLOPs = 6 ×（不含输入嵌入的激活参数）+ 12 × 层数 × 注意力宽度 × 序列长度（不扣除因果掩码，也不加重计算），与 Megatron-LM、torchtitan 和 llm-foundry 的算法一致；冻结的权重（LoRA、QLoRA、冻结的层）不计权重梯度（6 中的 2），没有梯度流过的层完全不计反向。；Megatron 训练的多 token 预测（MTP）层另计各自的解码层、2h -&gt; h 投影和输出层，与 Megatron-Bridge 的算法一致。</translation>
    </message>
    <message>
        <source>MFU = model FLOPs per second / (GPUs x dense peak of the compute format: fp8&apos;s for fp8 training). Model FLOPs per token = 6 x (active parameters without the input embedding) + 12 x layers x attention width x sequence length (causal masking and recomputation not discounted or added), as Megatron-LM, torchtitan and llm-foundry count them, the sequence being each packed one (packed_sequence_tokens) where rows are packed; frozen weights (LoRA, QLoRA, frozen layers) count no weight gradient (2 of the 6), and layers no gradient flows through count no backward at all. Multi-token-prediction layers that Megatron trains add each one&apos;s decoder layer, 2h -&gt; h projection and output layer, as Megatron-Bridge counts them.</source>
        <translation type="vanished">MFU = 每秒模型 FLOPs /（GPU 数 × 计算格式的稠密峰值：fp8 训练按 fp8 峰值计）。每个 token 的模型 FLOPs = 6 ×（不含输入嵌入的激活参数）+ 12 × 层数 × 注意力宽度 × 序列长度（不扣除因果掩码，也不加重计算），与 Megatron-LM、torchtitan 和 llm-foundry 的算法一致，行被打包时序列指每个被打包的序列（packed_sequence_tokens）；冻结的权重（LoRA、QLoRA、冻结的层）不计权重梯度（6 中的 2），没有梯度流过的层完全不计反向。；Megatron 训练的多 token 预测（MTP）层另计各自的解码层、2h -&gt; h 投影和输出层，与 Megatron-Bridge 的算法一致。</translation>
    </message>
    <message>
        <source>MFU = model FLOPs per second / (GPUs x dense peak of the compute format: fp8&apos;s for fp8 training). Model FLOPs per token = 6 x (active parameters without the input embedding) + 12 x softmax-attention layers (not gated DeltaNet ones) x attention width x sequence length (causal masking and recomputation not discounted or added), as Megatron-LM, torchtitan and llm-foundry count them, the sequence being each packed one (packed_sequence_tokens) where rows are packed; frozen weights (LoRA, QLoRA, frozen layers) count no weight gradient (2 of the 6), and layers no gradient flows through count no backward at all. Multi-token-prediction layers that Megatron trains add each one&apos;s decoder layer, 2h -&gt; h projection and output layer, as Megatron-Bridge counts them. A hybrid Mamba stack (Nemotron-H, Nemotron 3) is counted block by block as Megatron-Bridge counts it: Mamba, attention, MLP and MoE blocks and the logits, forward x 3.</source>
        <translation type="vanished">MFU = 每秒模型 FLOPs /（GPU 数 × 计算格式的稠密峰值：fp8 训练按 fp8 峰值计）。每个 token 的模型 FLOPs = 6 ×（不含输入嵌入的激活参数）+ 12 × softmax 注意力层数（不含门控 DeltaNet 层）× 注意力宽度 × 序列长度（不扣除因果掩码，也不加重计算），与 Megatron-LM、torchtitan 和 llm-foundry 的算法一致，行被打包时序列指每个被打包的序列（packed_sequence_tokens）；冻结的权重（LoRA、QLoRA、冻结的层）不计权重梯度（6 中的 2），没有梯度流过的层完全不计反向。；Megatron 训练的多 token 预测（MTP）层另计各自的解码层、2h -&gt; h 投影和输出层，与 Megatron-Bridge 的算法一致。混合 Mamba 模型（Nemotron-H、Nemotron 3）按 Megatron-Bridge 的算法逐块计算：Mamba 块、注意力块、MLP 块和 MoE 块以及 logits，前向 × 3。</translation>
    </message>
    <message>
        <source>MFU = model FLOPs per second / (GPUs x dense peak of the compute format: fp8&apos;s for fp8 training). Model FLOPs per token = 6 x (active parameters of the language model without the input embedding: a vision tower runs over image patches, not tokens) + 12 x softmax-attention layers (not gated DeltaNet ones) x attention width x sequence length (causal masking and recomputation not discounted or added), as Megatron-LM, torchtitan and llm-foundry count them, the sequence being each packed one (packed_sequence_tokens) where rows are packed; frozen weights (LoRA, QLoRA, frozen layers) count no weight gradient (2 of the 6), and layers no gradient flows through count no backward at all. Multi-token-prediction layers that Megatron trains add each one&apos;s decoder layer, 2h -&gt; h projection and output layer, as Megatron-Bridge counts them. A hybrid Mamba stack (Nemotron-H, Nemotron 3) is counted block by block as Megatron-Bridge counts it: Mamba, attention, MLP and MoE blocks and the logits, forward x 3.</source>
        <translation type="vanished">MFU = 每秒模型 FLOPs /（GPU 数 × 计算格式的稠密峰值：fp8 训练按 fp8 峰值计）。每个 token 的模型 FLOPs = 6 ×（语言模型不含输入嵌入的激活参数：视觉塔按图像块运行，不按 token 运行）+ 12 × softmax 注意力层数（不含门控 DeltaNet 层）× 注意力宽度 × 序列长度（不扣除因果掩码，也不加重计算），与 Megatron-LM、torchtitan 和 llm-foundry 的算法一致，行被打包时序列指每个被打包的序列（packed_sequence_tokens）；冻结的权重（LoRA、QLoRA、冻结的层）不计权重梯度（6 中的 2），没有梯度流过的层完全不计反向。；Megatron 训练的多 token 预测（MTP）层另计各自的解码层、2h -&gt; h 投影和输出层，与 Megatron-Bridge 的算法一致。混合 Mamba 模型（Nemotron-H、Nemotron 3）按 Megatron-Bridge 的算法逐块计算：Mamba 块、注意力块、MLP 块和 MoE 块以及 logits，前向 × 3。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/mfu.py" line="19"/>
        <source>MFU = model FLOPs per second / (GPUs x dense peak of the compute format: fp8&apos;s for fp8 training). Model FLOPs per token = 6 x (active parameters of the language model without the input embedding: a vision tower runs over image patches, not tokens) + 12 x attention width x the keys a token&apos;s query is scored against in the softmax-attention layers (not gated DeltaNet ones): half the sequence length under the causal mask, as Megatron-LM counts it, and a sliding window&apos;s mean on the layers that slide (recomputation not added), the sequence being each packed one (packed_sequence_tokens) where rows are packed; frozen weights (LoRA, QLoRA, frozen layers) count no weight gradient (2 of the 6), and layers no gradient flows through count no backward at all. Multi-token-prediction layers that Megatron trains add each one&apos;s decoder layer, 2h -&gt; h projection and output layer, as Megatron-Bridge counts them. A hybrid Mamba stack (Nemotron-H, Nemotron 3) is counted block by block as Megatron-Bridge counts it: Mamba, attention, MLP and MoE blocks and the logits, forward x 3.</source>
        <translation>MFU = 每秒模型 FLOPs /（GPU 数 × 计算格式的稠密峰值：fp8 训练按 fp8 峰值计）。每个 token 的模型 FLOPs = 6 ×（语言模型不含输入嵌入的激活参数：视觉塔按图像块运行，不按 token 运行）+ 12 × 注意力宽度 × 每个 token 的查询在 softmax 注意力层（不含门控 DeltaNet 层）中打分的键数：因果掩码下为序列长度的一半，与 Megatron-LM 的算法一致，滑动窗口层取窗口内的平均键数（不加重计算），行被打包时序列指每个被打包的序列（packed_sequence_tokens）；冻结的权重（LoRA、QLoRA、冻结的层）不计权重梯度（6 中的 2），没有梯度流过的层完全不计反向。Megatron 训练的多 token 预测（MTP）层另计各自的解码层、2h -&gt; h 投影和输出层，与 Megatron-Bridge 的算法一致。混合 Mamba 模型（Nemotron-H、Nemotron 3）按 Megatron-Bridge 的算法逐块计算：Mamba 块、注意力块、MLP 块和 MoE 块以及 logits，前向 × 3。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/mfu.py" line="35"/>
        <source>MFU (attention counted whole) = the same, with every key of the attention scores counted, masked or not (12 x layers x attention width x sequence length): the count of PaLM&apos;s appendix B, torchtitan and nanoGPT, whose printed MFU is this one; it can exceed 100% at long sequences. The speed cap (no plan more than 10% above the best published run on its GPU) compares this figure, the count the published runs&apos; ceilings were measured in.</source>
        <translation>MFU（注意力全量计入）= 同样的每秒模型 FLOPs，但注意力分数的每个键都计入，无论是否被掩码（12 × 层数 × 注意力宽度 × 序列长度）：即 PaLM 附录 B、torchtitan 和 nanoGPT 的算法，它们打印的 MFU 就是这个值；长序列时可能超过 100%。速度上限（任何方案都不得比其 GPU 上已发表的最佳运行高出 10% 以上）比较的正是这一数值，即已发表运行的上限所用的计法。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/mfu.py" line="42"/>
        <source>MFU (bf16 peak) = the same model FLOPs per second / (GPUs x dense bf16 peak): the convention of tables that divide fp8 runs by the bf16 peak; it can exceed 100% for fp8.</source>
        <translation>MFU（bf16 峰值）= 相同的模型 FLOPs 每秒 /（GPU 数 × 稠密 bf16 峰值）：沿用把 fp8 运行按 bf16 峰值计算的表格惯例；对 fp8 可能超过 100%。</translation>
    </message>
    <message>
        <source>grad_accum x (GEMMs at min(achievable FLOP/s, memory roofline) + attention in whole key tiles at its kernel&apos;s rate for the head dim), forward + backward (weights&apos; gradients only where they train)</source>
        <translation type="vanished">grad_accum × (GEMM 按 min(可达 FLOP/s, 显存屋顶线) 计算 + 注意力按整块 key tile、以其内核在该 head 维度下的速率计算)，前向 + 反向（仅在权重参与训练时计算权重梯度）</translation>
    </message>
    <message>
        <source>grad_accum x bytes of element-wise ops, loss, adapters, dequantisation / achieved memory bandwidth</source>
        <translation type="vanished">grad_accum × 逐元素运算、损失、适配器、反量化的字节数 / 可达显存带宽</translation>
    </message>
    <message>
        <source>grad_accum x the forward again (full), the attention core again (selective) or every second nn.Linear matmul in forward order, the router and the element-wise work (op-selective)</source>
        <translation type="vanished">grad_accum × 再算一遍前向（完整）、再算一遍注意力核心（选择性），或按前向顺序每隔一个 nn.Linear 的矩阵乘、路由器和逐元素运算（按算子选择）</translation>
    </message>
    <message>
        <source>4 collectives of b x s x h per layer per micro-batch over the TP link, minus overlap</source>
        <translation type="vanished">每层每个 micro-batch 在 TP 链路上 4 次 b × s × h 的集合通信，减去重叠部分</translation>
    </message>
    <message>
        <source>4 collectives of b x s x h per layer per micro-batch over the TP link, minus overlap; under sequence parallelism Megatron adds one all-reduce a step of the MLA down projections&apos; gradients</source>
        <translation type="vanished">每层每个 micro-batch 在 TP 链路上 4 次 b × s × h 的集合通信，减去重叠部分；在序列并行下，Megatron 每步还要对 MLA 下投影的梯度做一次 all-reduce</translation>
    </message>
    <message>
        <source>grad_accum x (GEMMs at min(achievable FLOP/s, memory roofline) + attention in whole key tiles at its kernel&apos;s rate for the head dim), forward + backward (weights&apos; gradients only where they train); a vision-language model with images adds its image encoder on the first stage: per image the tower&apos;s patches through each block&apos;s GEMMs and attention (per image, Qwen2.5-VL&apos;s windows), patch embedding and mergers, backward only where the tower trains</source>
        <translation type="vanished">grad_accum × (GEMM 按 min(可达 FLOP/s, 显存屋顶线) 计算 + 注意力按整块 key tile、以其内核在该 head 维度下的速率计算)，前向 + 反向（仅在权重参与训练时计算权重梯度）；带图像的视觉语言模型在第一个流水线阶段加上图像编码器：每张图像的视觉塔 patch 经过每个块的 GEMM 和注意力（按图像计算，Qwen2.5-VL 按窗口计算）、patch 嵌入和合并器，仅在视觉塔参与训练时计算反向</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="17"/>
        <source>grad_accum x bytes of element-wise ops, loss, adapters, dequantisation (and the image encoder&apos;s norms, residual adds, activations and rotary) / achieved memory bandwidth</source>
        <translation>grad_accum × 逐元素运算、损失、适配器、反量化（以及图像编码器的归一化、残差相加、激活和旋转位置编码）的字节数 / 可达显存带宽</translation>
    </message>
    <message>
        <source>grad_accum x the forward again (full), the attention core again (selective) or every second nn.Linear matmul in forward order, the router and the element-wise work (op-selective); full: a trained image encoder&apos;s blocks&apos; forward again</source>
        <translation type="vanished">grad_accum × 再算一遍前向（完整）、再算一遍注意力核心（选择性），或按前向顺序每隔一个 nn.Linear 的矩阵乘、路由器和逐元素运算（按算子选择）；完整重算时，参与训练的图像编码器各块的前向也再算一遍</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="8"/>
        <source>grad_accum x (GEMMs at min(achievable FLOP/s, memory roofline) + attention in whole key tiles at its kernel&apos;s rate for the head dim), forward + backward (weights&apos; gradients only where they train); a vision-language model with images adds its image encoder on the first stage: per image the tower&apos;s patches through each block&apos;s GEMMs and attention (per image, Qwen2.5-VL&apos;s windows), patch embedding and mergers, backward where the tower trains (input and weight gradients) or is frozen but back-propagated (frozen-backward: input gradients only)</source>
        <translation>grad_accum × (GEMM 按 min(可达 FLOP/s, 显存屋顶线) 计算 + 注意力按整块 key tile、以其内核在该 head 维度下的速率计算)，前向 + 反向（仅在权重参与训练时计算权重梯度）；带图像的视觉语言模型在第一个流水线阶段加上图像编码器：每张图像的视觉塔 patch 经过每个块的 GEMM 和注意力（按图像计算，Qwen2.5-VL 按窗口计算）、patch 嵌入和合并器；视觉塔参与训练时计算反向（输入梯度和权重梯度），冻结但仍反向传播时（frozen-backward）只计算输入梯度</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="20"/>
        <source>grad_accum x the forward again (full; the LM head&apos;s matmul too where the framework&apos;s checkpointing wraps it), the attention core again (selective) or every second nn.Linear matmul in forward order, the router and the element-wise work (op-selective); full: a trained image encoder&apos;s blocks&apos; forward again; a frozen-backward one&apos;s always (its blocks checkpointed)</source>
        <translation>grad_accum × 再算一遍前向（完整；框架的检查点也包住 LM head 时，其矩阵乘也再算一遍）、再算一遍注意力核心（选择性），或按前向顺序每隔一个 nn.Linear 的矩阵乘、路由器和逐元素运算（按算子选择）；完整重算时，参与训练的图像编码器各块的前向也再算一遍；frozen-backward 的图像编码器则总是再算一遍（其各块均做检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="26"/>
        <source>4 collectives of b x s x h per layer per micro-batch over the TP link, minus overlap; under sequence parallelism Megatron adds one all-reduce a step of the MLA down projections&apos; and MoE routers&apos; gradients</source>
        <translation>每层每个微批次在 TP 链路上 4 次 b × s × h 的集合通信，减去重叠部分；在序列并行下，Megatron 每步还要对 MLA 下投影和 MoE 路由器的梯度做一次 all-reduce</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="30"/>
        <source>ring exchange of K/V blocks: each of the cp - 1 blocks hides behind one step&apos;s attention (attention / cp), the rest is exposed</source>
        <translation>K/V 块的环形交换：cp - 1 个块各藏在一步的注意力（注意力 / cp）之后，其余暴露在外</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="33"/>
        <source>dispatch + combine per MoE layer, forward and backward: each routed copy of a token to its expert&apos;s rank (all-to-all), every rank&apos;s tokens (all-gather), or a token once per other node holding one of its experts (flex: DeepEP / HybridEP); with moe_a2a_overlap, what the other micro-batch&apos;s layer does not hide</source>
        <translation>每个 MoE 层前向和反向的分发 + 合并：token 每个路由副本发往其专家所在 rank（all-to-all）、每个 rank 的全部 token（all-gather），或 token 对持有其专家的每个其他节点各发一次（flex：DeepEP / HybridEP）；开启 moe_a2a_overlap 时，为另一个微批次的层未能掩盖的部分</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="39"/>
        <source>activations sent to the next stage and gradients back, per micro-batch; where a node holds several stages and the schedule blocks on its exchanges, a stage next to a node boundary&apos;s exchange over the GPU&apos;s own NIC instead of NVLink, beyond that stage&apos;s slack to the busiest one</source>
        <translation>每个微批次发往下一阶段的激活值和传回的梯度；当一个节点容纳多个阶段且调度阻塞等待其交换时，位于节点边界旁的阶段经 GPU 自身网卡（而非 NVLink）进行交换，超出该阶段相对最忙阶段的余量的部分</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="44"/>
        <source>gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP runs under pipelining) not hidden behind forward and backward, + the compute the hidden part displaces: NCCL&apos;s SMs / the GPU&apos;s SMs of the compute-bound work (on Hopper 1/2 of a GEMM of more CTAs than the SMs NCCL leaves, whose CTAs beyond run as a second wave; nothing of one of no more), 3 x link / HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL&apos;s small-message latency</source>
        <translation>未被前向和反向掩盖的梯度 all-reduce / reduce-scatter（+ 每个微批次的 ZeRO-3 权重收集；FSDP 在流水线下运行时每步一次），+ 被掩盖部分挤占的计算：计算密集型工作按 NCCL 的 SM 数 / GPU 的 SM 数（Hopper 上，CTA 多于 NCCL 剩下的 SM 的 GEMM 取 1/2：超出的 CTA 作为第二波运行；CTA 不多于剩余 SM 的 GEMM 不受影响），显存带宽受限型工作按 3 × 链路带宽 / HBM 带宽；2021 年 4 月的 DeepSpeed：每个参数各自同步地收集和 reduce-scatter，每个 rank 一次拷贝启动；+ Megatron 下的 fp8 延迟缩放：grad_accum × vpp × 2 次 amax all-reduce，跨 tp × cp × dp 个 rank（tp_only_amax_red：tp × cp），按 NCCL 小消息延迟计算</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="67"/>
        <source>bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting for the host: bitsandbytes&apos; sync after each tensor; Megatron&apos;s fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp; + the passes around the step of the code the framework runs (Megatron-Core&apos;s: its gradient buffer&apos;s zeroing and NaN check; Apex&apos;s DistributedFusedAdam&apos;s under optimizer_step), else the gradients read twice more for clipping</source>
        <translation>优化器对每个自有参数读写的字节数 / 可达显存带宽，+ GPU 等待主机的时间：bitsandbytes 在每个张量之后的同步；Megatron 的 fp8 权重（fp8_param_gather，tensorwise）在梯度范数往返之后更新，每个 fp8 权重 3 次 Python 调用 + 跨 dp × cp 的 amax all-reduce；+ 框架所运行代码在优化器步骤前后的遍历（Megatron-Core 的：梯度缓冲区的清零与 NaN 检查；optimizer_step 下 Apex 的 DistributedFusedAdam 的），否则为裁剪时再读两遍梯度</translation>
    </message>
    <message>
        <source>gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP runs under pipelining) not hidden behind forward and backward, + the compute the hidden part displaces: NCCL&apos;s SMs / the GPU&apos;s SMs of the compute-bound work (on Hopper, whose GEMMs&apos; CTAs beyond the SMs left run as a second wave, 1/2), 3 x link / HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL&apos;s small-message latency</source>
        <translation type="vanished">未被前向和反向掩盖的梯度 all-reduce / reduce-scatter（+ 每个微批次的 ZeRO-3 权重收集；FSDP 在流水线下运行时每步一次），+ 被掩盖部分挤占的计算：计算密集型工作按 NCCL 的 SM 数 / GPU 的 SM 数（Hopper 上 GEMM 超出剩余 SM 的 CTA 作为第二波运行，取 1/2），显存带宽受限型工作按 3 × 链路带宽 / HBM 带宽；2021 年 4 月的 DeepSpeed：每个参数各自同步地收集和 reduce-scatter，每个 rank 一次拷贝启动；+ Megatron 下的 fp8 延迟缩放：grad_accum × vpp × 2 次 amax all-reduce，跨 tp × cp × dp 个 rank（tp_only_amax_red：tp × cp），按 NCCL 小消息延迟计算</translation>
    </message>
    <message>
        <source>bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting for the host: bitsandbytes&apos; sync after each tensor; Megatron&apos;s fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp; Megatron-Core: + 2 passes over the rank&apos;s whole gradient buffer, every parameter it trains (its zeroing and the NaN check&apos;s norm)</source>
        <translation type="vanished">优化器对每个自有参数读写的字节数 / 可达显存带宽，+ GPU 等待主机的时间：bitsandbytes 在每个张量之后的同步；Megatron 的 fp8 权重（fp8_param_gather，tensorwise）在梯度范数往返之后更新，每个 fp8 权重 3 次 Python 调用 + 跨 dp × cp 的 amax all-reduce；Megatron-Core：+ 对该 rank 整个梯度缓冲区（其训练的每个参数）的 2 遍读写（清零与 NaN 检查的范数）</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="89"/>
        <source>1F1B (arXiv:2401.10241 Table 2): (p - 1)(F + B + W), one micro-batch through every stage but the busiest + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends (+ one more each way over the NIC per node boundary where a node holds several stages and the exchanges block)</source>
        <translation>1F1B（arXiv:2401.10241 表 2）：(p - 1)(F + B + W)，一个微批次经过除最忙阶段外的每个阶段 + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送（当一个节点容纳多个阶段且交换为阻塞式时，每个节点边界再加经网卡的往返各一次）</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="93"/>
        <source>GPipe, as 1F1B: (p - 1)(F + B + W), one micro-batch through every stage but the busiest + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends (+ one more each way over the NIC per node boundary where a node holds several stages and the exchanges block)</source>
        <translation>GPipe，同 1F1B：(p - 1)(F + B + W)，一个微批次经过除最忙阶段外的每个阶段 + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送（当一个节点容纳多个阶段且交换为阻塞式时，每个节点边界再加经网卡的往返各一次）</translation>
    </message>
    <message>
        <source>activations sent to the next stage and gradients back, per micro-batch</source>
        <translation type="vanished">每个微批次发往下一阶段的激活值和传回的梯度</translation>
    </message>
    <message>
        <source>gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP runs under pipelining) not hidden behind forward and backward, + the compute the hidden part displaces: NCCL&apos;s SMs / the GPU&apos;s SMs of the compute-bound work, 3 x link / HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL&apos;s small-message latency</source>
        <translation type="vanished">未被前向和反向掩盖的梯度 all-reduce / reduce-scatter（+ 每个微批次的 ZeRO-3 权重收集；FSDP 在流水线下运行时每步一次），+ 被掩盖部分挤占的计算：计算密集型工作按 NCCL 的 SM 数 / GPU 的 SM 数，显存带宽受限型工作按 3 × 链路带宽 / HBM 带宽；2021 年 4 月的 DeepSpeed：每个参数各自同步地收集和 reduce-scatter，每个 rank 一次拷贝启动；+ Megatron 下的 fp8 延迟缩放：grad_accum × vpp × 2 次 amax all-reduce，跨 tp × cp × dp 个 rank（tp_only_amax_red：tp × cp），按 NCCL 小消息延迟计算</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="56"/>
        <source>the pipeline schedule&apos;s idle time (BUBBLE_FORMULAS: 1F1B and GPipe one micro-batch&apos;s F + B + W through every stage but the busiest, interleaved 1F1B that / vpp, the zero-bubble schedules that less the W passes they defer) + 2 (pp - 1) sends to the next stage</source>
        <translation>流水线调度的空闲时间（BUBBLE_FORMULAS：1F1B 和 GPipe 为一个微批次的 F + B + W 经过除最忙阶段外的每个阶段，交错 1F1B 为其 / vpp，零气泡调度为其减去推迟的 W 计算）+ 2 (pp - 1) 次发往下一阶段的发送</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="60"/>
        <source>CPU optimizer + copies over PCIe: DeepSpeed&apos;s CPU Adam on the whole shard at the node&apos;s host memory bandwidth + gradients and weights over PCIe (weights streamed per micro-batch when they are offloaded too, hidden behind what the data-parallel traffic left of the compute); Megatron&apos;s HybridDeviceOptimizer: optimizer_offload_fraction of the shard in torch&apos;s fused CPU AdamW at one thread&apos;s rate per rank + its fp32 gradients to the host and weights back</source>
        <translation>CPU 优化器 + 经 PCIe 的拷贝：DeepSpeed 的 CPU Adam 以节点主机内存带宽处理整个分片 + 经 PCIe 的梯度和权重（权重也卸载时按微批次流式传输，藏在数据并行通信剩下的计算之后）；Megatron 的 HybridDeviceOptimizer：分片中 optimizer_offload_fraction 的部分在 torch 的融合 CPU AdamW 中以每个 rank 一个线程的速率运行 + 其 fp32 梯度传到主机、权重传回</translation>
    </message>
    <message>
        <source>bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting for the host: bitsandbytes&apos; sync after each tensor; Megatron&apos;s fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp</source>
        <translation type="vanished">优化器对每个自有参数读写的字节数 / 可达显存带宽，+ GPU 等待主机的时间：bitsandbytes 在每个张量之后的同步；Megatron 的 fp8 权重（fp8_param_gather，tensorwise）在梯度范数往返之后更新，每个 fp8 权重 3 次 Python 调用 + 跨 dp × cp 的 amax all-reduce</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="76"/>
        <source>grad_accum x the time the GPU waits for the host: kernel launches per layer (CUDA graphs: one per captured region) x host seconds per launch; per MoE layer forward the dispatcher&apos;s host sync (round trip + first launch + max(0, host - GPU) of the layer), elsewhere max(0, host - GPU) over the micro-batch, less the data-parallel and offload waits the host runs ahead of</source>
        <translation>grad_accum × GPU 等待主机的时间：每层的内核启动数（CUDA 图：每个捕获区域一次）× 每次启动的主机秒数；每个 MoE 层前向的分发器主机同步（往返 + 首次启动 + 该层的 max(0, 主机 - GPU)），其他情况为整个微批次上的 max(0, 主机 - GPU)，减去主机提前跑过的数据并行和卸载等待</translation>
    </message>
    <message>
        <source>1F1B (arXiv:2401.10241 Table 2): (p - 1)(F + B + W), one micro-batch through every stage but the busiest + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends</source>
        <translation type="vanished">1F1B（arXiv:2401.10241 表 2）：(p - 1)(F + B + W)，一个微批次经过除最忙阶段外的每个阶段 + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送</translation>
    </message>
    <message>
        <source>GPipe, as 1F1B: (p - 1)(F + B + W), one micro-batch through every stage but the busiest + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends</source>
        <translation type="vanished">GPipe，同 1F1B：(p - 1)(F + B + W)，一个微批次经过除最忙阶段外的每个阶段 + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="97"/>
        <source>interleaved 1F1B: (p - 1)(F + B + W) / vpp, each of a rank&apos;s vpp chunks 1 / vpp of its layers + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends</source>
        <translation>交错 1F1B：(p - 1)(F + B + W) / vpp，rank 的 vpp 个块各占其层数的 1 / vpp + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="100"/>
        <source>ZB-1p (arXiv:2401.10241 Table 2, ZB-H1): (p - 1)(F + B) - (min(m, p) - 1) W = (p - 1)(F + B - W) once m &gt;= p: p - 1 W passes deferred into the F-B chain + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends</source>
        <translation>ZB-1p（arXiv:2401.10241 表 2，ZB-H1）：(p - 1)(F + B) - (min(m, p) - 1) W，m &gt;= p 时即 (p - 1)(F + B - W)：p - 1 次 W 计算推迟到 F-B 链中 + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="103"/>
        <source>ZB-2p (arXiv:2401.10241 Appendix H): max(0, (p - 1)(F + B) - (m - 1) W): every W but the last micro-batch&apos;s deferred + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends</source>
        <translation>ZB-2p（arXiv:2401.10241 附录 H）：max(0, (p - 1)(F + B) - (m - 1) W)：除最后一个微批次外的每个 W 都被推迟 + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="106"/>
        <source>ZB-V (arXiv:2401.10241 section 6, ZB-H2&apos;s Table 2 form): max(0, (p - 1)(F + B) - min(m - 1, 2 (p - 1)) W) = (p - 1)(F + B - 2 W) once m &gt; 2 (p - 1); F, B and W of both chunks of a rank + 2 (p - 1) T_comm, the warm-up&apos;s activation and gradient sends</source>
        <translation>ZB-V（arXiv:2401.10241 第 6 节，ZB-H2 的表 2 形式）：max(0, (p - 1)(F + B) - min(m - 1, 2 (p - 1)) W)，m &gt; 2 (p - 1) 时即 (p - 1)(F + B - 2 W)；F、B 和 W 为一个 rank 两个块之和 + 2 (p - 1) T_comm，即预热阶段激活值和梯度的发送</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="114"/>
        <source>interleaved 1F1B, Megatron-Core&apos;s overlapped exchanges: (p - 1)(F + B + W) / vpp, each of a rank&apos;s vpp chunks 1 / vpp of its layers + 2 (p x vpp - 1) T_comm, the first micro-batch&apos;s forward and the last one&apos;s backward crossing every chunk boundary</source>
        <translation>交错 1F1B，Megatron-Core 的重叠交换：(p - 1)(F + B + W) / vpp，rank 的 vpp 个块各占其层数的 1 / vpp + 2 (p x vpp - 1) T_comm，即第一个微批次的前向和最后一个微批次的反向跨越每个块边界</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="36"/>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="37"/>
        <source>derived</source>
        <translation>推导</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="38"/>
        <source>assumed</source>
        <translation>假定</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="42"/>
        <source>from measurements</source>
        <translation>来自实测</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="43"/>
        <source>calculated from specs</source>
        <translation>按规格推算</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="44"/>
        <source>a rough guess</source>
        <translation>粗略假定</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="47"/>
        <source>the speed behind this part was measured on this GPU or for this kernel, so it is the surest kind of figure here.</source>
        <translation>这一部分所依据的速度是在这款 GPU 或这个内核上实测得到的，因此是这里最可靠的一类数字。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="49"/>
        <source>worked out from the software&apos;s own code and the GPU&apos;s datasheet, not measured here, so it is fairly sure but can be off where the hardware runs below its datasheet.</source>
        <translation>根据软件自身的代码和 GPU 的规格表推算，此处没有实测，因此比较可靠，但在硬件达不到规格表速度时可能有偏差。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="52"/>
        <source>a stated figure with no measurement behind it for this set-up, so it is the least sure part of the time.</source>
        <translation>一个给定的数值，对这套配置没有实测支撑，因此是这段时间里最不确定的部分。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="65"/>
        <source>Matmuls at the maximum achievable matmul rate measured on this GPU (stas00/ml-engineering), in whole tiles and waves; attention at the rate its kernel&apos;s paper measured.</source>
        <translation>矩阵乘按在这款 GPU 上实测的最大可达矩阵乘速率（stas00/ml-engineering），按整块 tile 和整波计算；注意力按其内核论文实测的速率。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="68"/>
        <source>Matmuls at a rate derived from this GPU&apos;s measured bf16 rate and the fp8/bf16 ratio of GPUs measured in both; attention at the rate its kernel&apos;s paper measured.</source>
        <translation>矩阵乘速率由这款 GPU 实测的 bf16 速率与两种格式都有实测的 GPU 的 fp8/bf16 比值推导；注意力按其内核论文实测的速率。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="71"/>
        <source>Matmuls and attention at the rates measured on this GPU, slowed to the clock its power limit leaves under sustained load (also measured), in whole tiles and waves.</source>
        <translation>矩阵乘和注意力按在这款 GPU 上实测的速率，再降到持续负载下功耗上限所允许的频率（同样为实测），按整块 tile 和整波计算。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="74"/>
        <source>Matmuls at the maximum achievable matmul rate measured on another part with the same chip; attention at the rate its kernel&apos;s paper measured.</source>
        <translation>矩阵乘按同一芯片的另一款产品上实测的最大可达矩阵乘速率；注意力按其内核论文实测的速率。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="77"/>
        <source>The fp8 matmuls at this GPU&apos;s measured bf16 matmul rate, not its fp8 one: Transformer Engine&apos;s ROCm port of late 2024 ran them at parity with bf16 (ROCm/TransformerEngine issue #73); a later release with tuned fp8 GEMMs runs faster. Attention at the rate its kernel&apos;s paper measured.</source>
        <translation>fp8 矩阵乘按本 GPU 实测的 bf16 矩阵乘速率计，而非其 fp8 速率：Transformer Engine 2024 年末的 ROCm 移植版运行它们时与 bf16 持平（ROCm/TransformerEngine issue #73）；对 fp8 GEMM 做过调优的后续版本更快。注意力按其内核论文实测的速率计。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="81"/>
        <source>No matmul measurement for this GPU: matmuls at the median fraction of peak of the GPUs measured.</source>
        <translation>这款 GPU 没有矩阵乘实测：矩阵乘按已实测 GPU 的峰值占比中位数计算。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="84"/>
        <source>Bytes counted operation by operation from the framework&apos;s kernels, at 85% of the datasheet memory bandwidth (stream benchmarks).</source>
        <translation>按框架的内核逐个算子统计字节数，显存带宽取规格值的 85%（stream 基准测试）。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="87"/>
        <source>The forward work that checkpointing runs again, at the forward&apos;s rates.</source>
        <translation>检查点重算的前向工作量，按前向的速率计算。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="89"/>
        <source>Transformer Engine&apos;s ring step by step: each K/V block hides behind one step&apos;s attention.</source>
        <translation>逐步计算 Transformer Engine 的环：每个 K/V 块只能藏在一步的注意力计算之后。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="91"/>
        <source>Routed tokens over the links the expert group crosses, routing spread evenly over the experts.</source>
        <translation>路由的 token 经过专家组所跨的链路，假设路由在专家间均匀分布。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="93"/>
        <source>Activations and their gradients between stages over the link they cross.</source>
        <translation>阶段之间的激活及其梯度经过所跨的链路。</translation>
    </message>
    <message>
        <source>The pipeline schedule&apos;s idle slots: (pp - 1) / vpp micro-batches of the busiest stage.</source>
        <translation type="vanished">流水线调度的空闲时段：最忙阶段的 (pp - 1) / vpp 个微批次。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="95"/>
        <source>DeepSpeed&apos;s CPU Adam on the whole optimizer shard at an assumed 150 GB/s of host memory bandwidth per node, and PCIe at 80% of its rate.</source>
        <translation>DeepSpeed 的 CPU Adam 处理整个优化器分片，按假定的每节点 150 GB/s 主机内存带宽计算，PCIe 取其速率的 80%。</translation>
    </message>
    <message>
        <source>CPU Adam at an assumed 150 GB/s of host memory bandwidth per node, and PCIe at 80% of its rate.</source>
        <translation type="vanished">CPU Adam 按假定的每节点 150 GB/s 主机内存带宽计算，PCIe 取其速率的 80%。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="98"/>
        <source>Bytes the optimizer reads and writes per parameter at the achieved memory bandwidth.</source>
        <translation>优化器每个参数读写的字节数，按可达显存带宽计算。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="102"/>
        <source>Kernel launches and host syncs per layer counted from the framework&apos;s source, at a host time per launch and per sync measured on another machine&apos;s CPU, not this one&apos;s.</source>
        <translation>每层的内核启动次数和主机同步次数按框架源码统计；每次启动和每次同步的主机耗时是在另一台机器的 CPU 上测得的，并非本机。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="109"/>
        <source>Megatron&apos;s HybridDeviceOptimizer: the offloaded share of the optimizer shard (optimizer_offload_fraction) steps in torch&apos;s fused CPU AdamW on one thread per rank, at a per-thread rate derived from Megatron-Bridge&apos;s measured CPU-offloading runs; its fp32 gradients and weights cross PCIe at 80% of its rate.</source>
        <translation>Megatron 的 HybridDeviceOptimizer：优化器分片中卸载的部分（optimizer_offload_fraction）由 torch 的融合 CPU AdamW 在每个 rank 一个线程上更新，单线程速率由 Megatron-Bridge 实测的 CPU 卸载运行推得；其 fp32 梯度和权重经 PCIe 传输，取其速率的 80%。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="115"/>
        <source>The 1F1B schedule&apos;s idle slots: one micro-batch&apos;s forward and backward through every stage but the busiest, counted from the stages&apos; own passes.</source>
        <translation>1F1B 调度的空闲时段：一个微批次的前向和反向流经除最忙阶段外的每个阶段，按各阶段自身的计算量计。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="117"/>
        <source>GPipe&apos;s idle slots, as 1F1B&apos;s: one micro-batch&apos;s forward and backward through every stage but the busiest.</source>
        <translation>GPipe 的空闲时段，与 1F1B 相同：一个微批次的前向和反向流经除最忙阶段外的每个阶段。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="119"/>
        <source>The interleaved schedule&apos;s idle slots: one micro-batch through every stage but the busiest, divided by the chunks per GPU (vpp).</source>
        <translation>交错调度的空闲时段：一个微批次流经除最忙阶段外的每个阶段，再除以每个 GPU 的模型块数（vpp）。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="121"/>
        <source>Zero bubble ZB-1p (arXiv:2401.10241): 1F1B&apos;s idle slots less the weight-gradient passes it defers into them, pp - 1 of them.</source>
        <translation>零气泡 ZB-1p（arXiv:2401.10241）：1F1B 的空闲时段减去推迟到其中的权重梯度计算，共 pp - 1 次。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="123"/>
        <source>Zero bubble ZB-2p (arXiv:2401.10241): 1F1B&apos;s idle slots less the weight-gradient passes of every micro-batch but the last, deferred into them.</source>
        <translation>零气泡 ZB-2p（arXiv:2401.10241）：1F1B 的空闲时段减去推迟到其中的、除最后一个微批次外每个微批次的权重梯度计算。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="126"/>
        <source>Zero bubble ZB-V (arXiv:2401.10241 section 6): two chunks per GPU in a V; 1F1B&apos;s idle slots less up to 2 (pp - 1) deferred weight-gradient passes (ZB-H2&apos;s form: the paper gives none of its own).</source>
        <translation>零气泡 ZB-V（arXiv:2401.10241 第 6 节）：每个 GPU 两个模型块，呈 V 形排布；1F1B 的空闲时段减去至多 2 (pp - 1) 次推迟的权重梯度计算（采用 ZB-H2 的公式：论文未给出其自身的公式）。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="159"/>
        <source>Bytes over the link the group crosses plus NCCL&apos;s latency model, nothing hidden behind compute.</source>
        <translation>字节经过通信组所跨的链路，加上 NCCL 的延迟模型，不计与计算的重叠。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="161"/>
        <source>Bytes over the link plus NCCL&apos;s latency model, less what the framework&apos;s code runs beside its GEMMs, collective by collective (userbuffers&apos; chunks, the backward&apos;s asynchronous collectives).</source>
        <translation>链路上的字节数加上 NCCL 的延迟模型，减去框架代码在其 GEMM 旁并行执行的部分，逐个集合通信计算（userbuffers 的分块、反向传播中的异步集合通信）。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="164"/>
        <source>The framework&apos;s context parallelism all-gathers K and V before each layer&apos;s attention and reduce-scatters their gradients after it, on the critical path: bytes and NCCL latency over the link the cp group crosses, nothing hidden.</source>
        <translation>该框架的上下文并行在每层注意力之前 all-gather K 和 V，并在其之后 reduce-scatter 它们的梯度，均位于关键路径上：按 cp 组所跨链路的字节数与 NCCL 延迟计算，不做任何隐藏。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="167"/>
        <source>per layer and micro-batch: all-gather of the other cp - 1 ranks&apos; K and V (their TP share of the KV heads) before the attention, again where full recomputation reruns it, + reduce-scatter of their gradients after its backward, each (cp - 1) x the rank&apos;s K and V bytes / the link&apos;s bandwidth + NCCL&apos;s latency, exposed</source>
        <translation>每层每个微批次：注意力之前 all-gather 其余 cp - 1 个 rank 的 K 和 V（它们在 KV 头上的 TP 份额），完整重计算重跑前向时再做一次，+ 反向之后 reduce-scatter 它们的梯度；每次为 (cp - 1) x 本 rank 的 K 和 V 字节数 / 链路带宽 + NCCL 延迟，全部暴露</translation>
    </message>
    <message>
        <location filename="../../engine/timing/provenance.py" line="172"/>
        <source>Bytes and NCCL latency are derived; the share hidden behind compute is the framework&apos;s stated overlap, not a measurement.</source>
        <translation>字节与 NCCL 延迟为推导所得；藏在计算之后的比例是框架给出的重叠比例，并非实测。</translation>
    </message>
    <message>
        <location filename="../../engine/workloads/__init__.py" line="35"/>
        <source>is inference: a served model has no training step; its speed is the serving speed (time to first token, time per output token, tokens per second).</source>
        <translation>是推理：部署的模型没有训练步；它的速度是推理服务速度（首个 token 用时、每个输出 token 用时、每秒 token 数）。</translation>
    </message>
    <message>
        <location filename="../../engine/workloads/__init__.py" line="40"/>
        <source>is inference: these plans change a training job; for a served model, serve-fit finds the longest context, the most users and the fewest GPUs.</source>
        <translation>为推理：这些方案改变的是训练任务；对于部署的模型，serve-fit 会找出最长的上下文、最多的用户数和最少的 GPU 数。</translation>
    </message>
    <message>
        <location filename="../../engine/workloads/__init__.py" line="52"/>
        <source>is inference: launch settings are written for training frameworks (micro-batch, sharding, optimizer), and a served model has none of these.</source>
        <translation>是推理：启动配置是为训练框架写的（微批次、分片、优化器），部署的模型没有这些设置。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/entropy.py" line="28"/>
        <source>the loss path&apos;s logits tensors + the entropy bonus (verl, entropy_coeff != 0): forward, the compiled entropy&apos;s fp32 buffer of b·s·V x 4 bytes beside the logits; backward, the entropy&apos;s gradient (b·s·V x compute bytes) alive beside flash-attn&apos;s out-of-place gradient of the logits</source>
        <translation>损失路径的 logits 张量 + 熵奖励（verl，entropy_coeff != 0）：前向时，编译后的熵计算在 logits 旁另有 b·s·V x 4 字节的 fp32 缓冲区；反向时，熵的梯度（b·s·V x 计算字节数）与 flash-attn 非原地计算的 logits 梯度同时存在</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_offload.py" line="72"/>
        <source>not modelled: the planner times the CPU step and the copies one after the other, Megatron&apos;s default, which is the slower case</source>
        <translation>未建模：规划器按 Megatron 的默认方式，把 CPU 更新和拷贝依次计时，这是较慢的情形</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_offload.py" line="77"/>
        <source>without the optimizer CPU offload switch Megatron keeps the whole optimizer on the GPU</source>
        <translation>没有优化器 CPU 卸载开关时，Megatron 把整个优化器留在 GPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/configs/common.py" line="108"/>
        <location filename="../../engine/configs/megatron_offload.py" line="81"/>
        <source>expected true or false, found {value}</source>
        <translation>应为 true 或 false，实际为 {value}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_offload.py" line="94"/>
        <source>expected a share from 0 to 1, found {value}, so the optimizer offload is left out</source>
        <translation>应为 0 到 1 之间的比例，实际为 {value}，因此未读入优化器卸载</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_offload.py" line="100"/>
        <source>an offload fraction of 0 moves nothing: the optimizer stays on the GPU</source>
        <translation>卸载比例为 0 时什么都不移动：优化器留在 GPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_offload.py" line="108"/>
        <source>no --optimizer-offload-fraction: Megatron&apos;s default is 1.0, all of the Adam moments on the CPU</source>
        <translation>没有 --optimizer-offload-fraction：Megatron 的默认值是 1.0，全部 Adam 动量在 CPU 上</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="19"/>
        <source>{framework} has no pipeline parallelism: pp {pp} cannot run in it.</source>
        <translation>{framework} 没有流水线并行：无法在其中运行 pp {pp}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="20"/>
        <source>{framework} has no {schedule} pipeline schedule: it runs {schedules}.</source>
        <translation>{framework} 没有 {schedule} 流水线调度：它支持 {schedules}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="21"/>
        <source>{framework} cannot run {sharding} together with pipeline parallelism (pp {pp}): with a pipeline it shards at most as ZeRO-{most}.</source>
        <translation>{framework} 无法在流水线并行（pp {pp}）下同时运行 {sharding}：使用流水线时最多按 ZeRO-{most} 分片。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="28"/>
        <source>{framework} has no {sharding}: it shards at most as ZeRO-{most}.</source>
        <translation>{framework} 没有 {sharding}：它最多按 ZeRO-{most} 分片。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="29"/>
        <source>{framework} has no tensor parallelism: tp {tp} cannot run in it.</source>
        <translation>{framework} 没有张量并行：无法在其中运行 tp {tp}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="30"/>
        <source>{framework} has no ring context parallelism: cp {cp} cannot run in it.</source>
        <translation>{framework} 没有环形上下文并行：无法在其中运行 cp {cp}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="31"/>
        <source>{framework} has no expert parallelism: ep {ep} cannot run in it.</source>
        <translation>{framework} 没有专家并行：无法在其中运行 ep {ep}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="33"/>
        <source>{framework} has no {sharding}: it shards with {stages} only.</source>
        <translation>{framework} 没有 {sharding}：它只用 {stages} 分片。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="34"/>
        <source>{framework} has no {offload} offload: it offloads {offloads}.</source>
        <translation>{framework} 没有 {offload} 卸载：它能卸载的是 {offloads}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="35"/>
        <source>{framework} has no CPU offload: offload {offload} cannot run in it.</source>
        <translation>{framework} 没有 CPU 卸载：无法运行 offload {offload}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="44"/>
        <source>{framework} has no optimizer-only offload with FSDP: FSDP&apos;s CPU offload moves the weights and gradients with the optimizer (offload optimizer+params); ZeRO-3 offloads the optimizer alone.</source>
        <translation>{framework} 在 FSDP 下没有仅卸载优化器的方式：FSDP 的 CPU 卸载会把权重和梯度连同优化器一起移到 CPU（offload optimizer+params）；ZeRO-3 可只卸载优化器。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="38"/>
        <source>{framework} shards {sharding} over every data-parallel GPU: a shard group of {group} GPUs cannot run in it; it shards within groups with {group_stages} only.</source>
        <translation>{framework} 的 {sharding} 在所有数据并行 GPU 上分片：无法运行 {group} 块 GPU 的分片组；它只在 {group_stages} 下于组内分片。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="25"/>
        <source>{framework} cannot run {sharding} with the {schedule} pipeline schedule: with that schedule it shards at most as ZeRO-{most} (ZeRO-0 is plain data parallelism).</source>
        <translation>{framework} 无法在 {schedule} 流水线调度下运行 {sharding}：使用该调度时最多只能按 ZeRO-{most} 分片（ZeRO-0 即普通数据并行）。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="41"/>
        <source>{framework} has no shard groups: {sharding} spans every data-parallel GPU, so a shard group of {group} GPUs cannot run in it.</source>
        <translation>{framework} 没有分片组：{sharding} 覆盖所有数据并行 GPU，因此无法运行 {group} 块 GPU 的分片组。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="50"/>
        <source>{framework} runs no pipeline parallelism with {method}: pp {pp} cannot run in it.</source>
        <translation>{framework} 在 {method} 下不支持流水线并行：无法在其中运行 pp {pp}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="52"/>
        <source>{framework} has no {schedule} pipeline schedule with {method}: it runs {schedules}.</source>
        <translation>{framework} 在 {method} 下没有 {schedule} 流水线调度：它支持 {schedules}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="54"/>
        <source>{framework} cannot run {sharding} together with pipeline parallelism (pp {pp}) with {method}: with a pipeline it shards at most as ZeRO-{most}.</source>
        <translation>{framework} 在 {method} 下无法在流水线并行（pp {pp}）时同时运行 {sharding}：使用流水线时最多按 ZeRO-{most} 分片。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="57"/>
        <source>{framework} has no {sharding} with {method}: it shards at most as ZeRO-{most}.</source>
        <translation>{framework} 在 {method} 下没有 {sharding}：它最多按 ZeRO-{most} 分片。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="59"/>
        <source>{framework} runs no tensor parallelism with {method}: tp {tp} cannot run in it.</source>
        <translation>{framework} 在 {method} 下不支持张量并行：无法在其中运行 tp {tp}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="61"/>
        <source>{framework} runs no ring context parallelism with {method}: cp {cp} cannot run in it.</source>
        <translation>{framework} 在 {method} 下不支持环形上下文并行：无法在其中运行 cp {cp}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="63"/>
        <source>{framework} runs no expert parallelism with {method}: ep {ep} cannot run in it.</source>
        <translation>{framework} 在 {method} 下不支持专家并行：无法在其中运行 ep {ep}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="68"/>
        <source>{framework} cannot shard a 4-bit QLoRA base by tensor parallelism: tp {tp} cannot run in it.</source>
        <translation>{framework} 无法用张量并行切分 4 位 QLoRA 基础权重：无法在其中运行 tp {tp}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="71"/>
        <source>{framework} recomputes whole layers only: checkpointing &quot;{checkpointing}&quot; cannot run in it.</source>
        <translation>{framework} 只能按整层重算：无法在其中运行检查点方式“{checkpointing}”。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="73"/>
        <source>{framework} has no checkpointing &quot;{checkpointing}&quot;: it runs {checkpointings}.</source>
        <translation>{framework} 没有检查点方式“{checkpointing}”：它支持 {checkpointings}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="76"/>
        <source>{framework} recomputes every layer or none: recomputing {n} layers per stage cannot run in it.</source>
        <translation>{framework} 要么重算每一层，要么都不重算：无法在其中每个阶段只重算 {n} 层。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="78"/>
        <source>{framework} has no recompute method &quot;{method}&quot;: it runs {methods}.</source>
        <translation>{framework} 没有重算方式“{method}”：它支持 {methods}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="81"/>
        <source>{framework} puts LoRA adapters on every layer: adapters on the top {n} layers only (lora_layers) cannot run in it.</source>
        <translation>{framework} 在每一层都放置 LoRA 适配器：仅在顶部 {n} 层放置适配器（lora_layers）无法在其中运行。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="85"/>
        <source>{framework} runs {method} on one GPU only: {gpus:,} GPUs cannot run it.</source>
        <translation>{framework} 只能在单块 GPU 上运行 {method}：无法用 {gpus:,} 块 GPU 运行。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/pipeline_split.py" line="39"/>
        <source>{framework} runs ZB-V only with an even number of layers a pipeline stage (its --allow-padding-num-layers rounds them up to a multiple of pp): the model&apos;s {layers} layers at pp {pp} give {stage}.</source>
        <translation>{framework} 只有在每个流水线阶段的层数为偶数时才能运行 ZB-V（其 --allow-padding-num-layers 会把层数向上补齐到 pp 的倍数）：模型的 {layers} 层在 pp {pp} 下每阶段为 {stage} 层。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="83"/>
        <source>{framework} has no fp8 recipe &quot;{recipe}&quot;: it runs {recipes}.</source>
        <translation>{framework} 没有 fp8 方案“{recipe}”：它支持 {recipes}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="84"/>
        <source>{framework} has no {method}.</source>
        <translation>{framework} 不支持 {method}。</translation>
    </message>
    <message>
        <source>{framework} runs {method} on one GPU only: {gpus} GPUs cannot run it.</source>
        <translation type="vanished">{framework} 只能在单块 GPU 上运行 {method}：无法用 {gpus} 块 GPU 运行。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="87"/>
        <source>{framework} runs on Apple GPUs only (MLX&apos;s Metal kernels): the {gpu} cannot run it.</source>
        <translation>{framework} 只能在 Apple GPU 上运行（MLX 的 Metal 内核）：{gpu} 无法运行它。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="90"/>
        <source>{framework} has no optimizer &quot;{value}&quot;: it runs {values}.</source>
        <translation>{framework} 没有优化器“{value}”：它支持 {values}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="91"/>
        <source>{framework} has no attention kernel &quot;{value}&quot;: it runs {values}.</source>
        <translation>{framework} 没有注意力内核“{value}”：它支持 {values}。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/framework_support.py" line="93"/>
        <source>frozen layers</source>
        <translation>冻结层</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/runnable.py" line="30"/>
        <source>set {settings} so {framework} can run the layout</source>
        <translation>设置 {settings}，使 {framework} 能运行此布局</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/runnable.py" line="31"/>
        <source>Set {settings} so {framework} can run the layout</source>
        <translation>设置 {settings}，使 {framework} 能运行此布局</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/runnable.py" line="32"/>
        <source>with {settings}, so {framework} can run the layout</source>
        <translation>使用 {settings}，使 {framework} 能运行此布局</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/runnable.py" line="34"/>
        <source>set {settings} so {framework} can run the training</source>
        <translation>设置 {settings}，使 {framework} 能运行此训练</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/runnable.py" line="35"/>
        <source>Set {settings} so {framework} can run the training</source>
        <translation>设置 {settings}，使 {framework} 能运行此训练</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/runnable.py" line="36"/>
        <source>with {settings}, so {framework} can run the training</source>
        <translation>使用 {settings}，使 {framework} 能运行此训练</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_servers.py" line="23"/>
        <source>the node holds {host} (host_memory_bytes, as set)</source>
        <translation>节点有 {host}（host_memory_bytes，按设定）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_servers.py" line="24"/>
        <source>the node holds {host} ({server}, {gpus} GPUs)</source>
        <translation>节点有 {host}（{server}，{gpus} 块 GPU）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_servers.py" line="25"/>
        <source>the node holds {host} ({n} of the {server}&apos;s {gpus} GPUs, taken as that share of its {full})</source>
        <translation>节点有 {host}（{server} 的 {gpus} 块 GPU 中的 {n} 块，按此比例取其 {full}）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_servers.py" line="27"/>
        <source>the node&apos;s CPU memory is not known, so not checked: no document states the {server}&apos;s</source>
        <translation>节点的 CPU 内存未知，因此未检查：没有文档给出 {server} 的内存</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_servers.py" line="29"/>
        <source>the node&apos;s CPU memory is not known, so not checked: no server standard states it for this GPU</source>
        <translation>节点的 CPU 内存未知，因此未检查：此 GPU 没有给出内存的服务器标准</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_servers.py" line="31"/>
        <source>the node&apos;s CPU memory is not known, so not checked: a node of {n} GPUs is larger than the {server} ({gpus} GPUs) whose memory is known</source>
        <translation>节点的 CPU 内存未知，因此未检查：{n} 块 GPU 的节点大于已知内存的 {server}（{gpus} 块 GPU）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/recompute_plans.py" line="18"/>
        <source>each recomputed layer runs its forward again: fewer layers recomputed cost less compute than recomputing them all</source>
        <translation>每个重算的层都要再运行一次前向：重算较少的层比全部重算的计算量更少</translation>
    </message>
    <message>
        <location filename="../../engine/planning/recompute_plans.py" line="52"/>
        <source>recompute {n} of the {layers} layers (full activation checkpointing of only some layers)</source>
        <translation>重算 {layers} 层中的 {n} 层（只对部分层做完全激活检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/recompute_plans.py" line="55"/>
        <source>recompute {n} of the {layers} layers of each pipeline stage (full activation checkpointing of only some layers)</source>
        <translation>重算每个流水线阶段 {layers} 层中的 {n} 层（只对部分层做完全激活检查点）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_common.py" line="90"/>
        <source>A shard group of {group} GPUs is not a multiple of the context-parallel size {cp}: an HSDP mesh cannot express it.</source>
        <translation>{group} 块 GPU 的分片组不是上下文并行规模 {cp} 的整数倍：HSDP 网格无法表示它。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/shard_group.py" line="62"/>
        <source>Sharding group size {group} must divide the {ranks} data-parallel × context-parallel ranks and be at least 2, or 0 for all of them.</source>
        <translation>分片组大小 {group} 必须整除 {ranks} 个数据并行 × 上下文并行 rank，且至少为 2；或设为 0 表示全部 rank。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/shard_group.py" line="74"/>
        <source>dp_shard {group} has no effect: nothing is sharded (no ZeRO stage, no FSDP, no distributed optimizer), so there is no shard group to form.</source>
        <translation>dp_shard {group} 不起作用：没有任何分片（没有 ZeRO 阶段、没有 FSDP、没有分布式优化器），因此无法组成分片组。</translation>
    </message>
    <message>
        <location filename="../../engine/models/hybrid_blocks.py" line="38"/>
        <source>hybrid_override_pattern has {n} blocks but num_hidden_layers is {layers}.</source>
        <translation>hybrid_override_pattern 有 {n} 个块，但 num_hidden_layers 为 {layers}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/mamba2.py" line="85"/>
        <source>Tensor parallelism {tp} must divide the Mamba heads ({heads}) and groups ({groups}).</source>
        <translation>张量并行度 {tp} 必须能整除 Mamba 头数（{heads}）和组数（{groups}）。</translation>
    </message>
    <message>
        <location filename="../../engine/models/mamba2.py" line="111"/>
        <source>hybrid_override_pattern must be made of M, *, - and E, not {bad!r}.</source>
        <translation>hybrid_override_pattern 只能由 M、*、- 和 E 组成，不能包含 {bad!r}。</translation>
    </message>
    <message>
        <location filename="../../engine/models/mamba2.py" line="149"/>
        <source>This hybrid config uses LatentMoE or multi-token prediction, which are not counted yet.</source>
        <translation>此混合模型配置使用了 LatentMoE 或多 token 预测，目前尚不能计算。</translation>
    </message>
    <message>
        <location filename="../../engine/scenario/recompute_layers.py" line="66"/>
        <source>recompute_num_layers {n} counts with full checkpointing only: with checkpointing &quot;{checkpointing}&quot; it has no effect.</source>
        <translation>recompute_num_layers {n} 仅在完整激活检查点下生效：激活检查点为“{checkpointing}”时不起作用。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rent_no_layout.py" line="14"/>
        <source>no layout: the global batch (micro_batch x grad_accum x data-parallel ranks = {batch}) does not split over this many GPUs with the parallelism the framework runs; a larger grad_accum can use more GPUs</source>
        <translation>没有可用布局：全局批次（micro_batch × grad_accum × 数据并行数 = {batch}）无法用该框架支持的并行方式分到这么多 GPU 上；增大 grad_accum 才能用上更多 GPU</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_megatron.py" line="55"/>
        <source>verl&apos;s Megatron default use_distributed_optimizer True (engine/megatron.yaml)</source>
        <translation>verl 的 Megatron 默认 use_distributed_optimizer True（engine/megatron.yaml）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_megatron.py" line="57"/>
        <source>verl&apos;s Megatron actor steps Megatron-Core&apos;s Adam, Transformer Engine&apos;s or Apex&apos;s FusedAdam (verl/utils/megatron/optimizer.py)</source>
        <translation>verl 的 Megatron actor 用 Megatron-Core 的 Adam 更新，即 Transformer Engine 或 Apex 的 FusedAdam（verl/utils/megatron/optimizer.py）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_megatron.py" line="67"/>
        <source>verl&apos;s Megatron default sequence_parallel True (engine/megatron.yaml)</source>
        <translation>verl 的 Megatron 默认 sequence_parallel 为 True（engine/megatron.yaml）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_megatron.py" line="69"/>
        <source>verl&apos;s Megatron actor keeps bf16 weights (dtype bfloat16) with fp32 main weights and grads in the optimizer, as Megatron&apos;s --bf16</source>
        <translation>verl 的 Megatron actor 以 bf16 保存权重（dtype bfloat16），优化器中保留 fp32 主权重和梯度，与 Megatron 的 --bf16 相同</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_megatron.py" line="35"/>
        <source>verl moves the weights and their gradients to the CPU between phases and loads them back for each pass (megatron_workers.py); the planner&apos;s weight offload is ZeRO-3&apos;s or FSDP&apos;s, which Megatron-Core does not shard, so the rollout phase is counted with the weights on the GPU</source>
        <translation>verl 在各阶段之间把权重及其梯度移到 CPU，并在每次计算前载回（megatron_workers.py）；规划器的权重卸载是 ZeRO-3 或 FSDP 的，而 Megatron-Core 不对权重分片，因此 rollout 阶段按权重留在 GPU 上计算</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_megatron.py" line="39"/>
        <source>verl reads grad_offload but does not use it: the gradients move with the weights (megatron_workers.py)</source>
        <translation>verl 读取 grad_offload 但并不使用它：梯度随权重一起移动（megatron_workers.py）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_megatron.py" line="92"/>
        <source>Megatron&apos;s hybrid CPU optimizer under verl is not counted: for verl the scenario&apos;s offload means its offload between phases, and one setting cannot say both</source>
        <translation>verl 下 Megatron 的混合 CPU 优化器未计入：对 verl 而言，场景的 offload 表示其阶段之间的卸载，一个设置无法同时表达两者</translation>
    </message>
    <message>
        <source>verl moves it to the CPU between phases (megatron_workers.py update_actor loads it back for the update); the verl framework row counts that offload on its FSDP actor only</source>
        <translation type="vanished">verl 在各阶段之间把它移到 CPU（megatron_workers.py 的 update_actor 在更新前将其载回）；verl 框架行只在其 FSDP actor 上计入这种卸载</translation>
    </message>
    <message>
        <source>Megatron&apos;s hybrid CPU optimizer under verl is not counted: the verl framework row models its FSDP workers and does not take Megatron&apos;s arguments</source>
        <translation type="vanished">verl 下 Megatron 的混合 CPU 优化器未计入：verl 框架行建模的是其 FSDP worker，不接受 Megatron 的参数</translation>
    </message>
    <message>
        <location filename="../../engine/configs/swift_megatron.py" line="45"/>
        <source>ms-swift&apos;s Megatron default {name} {value} (swift/megatron/arguments/megatron_args.py)</source>
        <translation>ms-swift Megatron 路径的默认值 {name} {value}（swift/megatron/arguments/megatron_args.py）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/swift_megatron.py" line="47"/>
        <source>ms-swift takes bf16 from the model&apos;s torch_dtype (bfloat16), with fp32 main weights and gradients as Megatron&apos;s --bf16</source>
        <translation>ms-swift 按模型的 torch_dtype（bfloat16）启用 bf16，并像 Megatron 的 --bf16 一样保留 fp32 主权重和梯度</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_swift_megatron.py" line="52"/>
        <source>ms-swift&apos;s Megatron path trains full weights or LoRA adapters, not {method}.</source>
        <translation>ms-swift 的 Megatron 路径只训练全量权重或 LoRA 适配器，不支持 {method}。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_swift_megatron.py" line="57"/>
        <source>ms-swift&apos;s Megatron LoRA names Megatron-Core&apos;s modules, not Hugging Face&apos;s; export this plan with all-linear targets.</source>
        <translation>ms-swift 的 Megatron LoRA 使用 Megatron-Core 的模块名，而非 Hugging Face 的；请将此方案的 LoRA 目标设为 all-linear 后再导出。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_swift_megatron.py" line="66"/>
        <source>The model&apos;s name holds characters a command line cannot carry; rename the model before exporting for ms-swift.</source>
        <translation>模型名称含有命令行无法传递的字符；请先重命名模型，再导出给 ms-swift。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fused_adamw.py" line="15"/>
        <source>the same AdamW and numerics in one fused kernel that updates in place (PyTorch 2.0 or later)</source>
        <translation>同一个 AdamW、同样的数值，由一个原地更新的融合内核完成（需 PyTorch 2.0 或更高版本）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/fused_adamw.py" line="47"/>
        <source>use fused AdamW ({setting})</source>
        <translation>改用融合 AdamW（{setting}）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf_optimizer.py" line="34"/>
        <source>OpenRLHF hands DeepSpeed a config AdamW (--optim adam, its default), which DeepSpeed builds as FusedAdam on the GPU (openrlhf/utils/deepspeed/deepspeed.py)</source>
        <translation>OpenRLHF 把配置中的 AdamW 交给 DeepSpeed（--optim adam，其默认值），DeepSpeed 在 GPU 上将其构建为 FusedAdam（openrlhf/utils/deepspeed/deepspeed.py）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf_optimizer.py" line="51"/>
        <source>the optimizer &apos;{name}&apos; is not one the planner models (AdamW is)</source>
        <translation>规划器未建模优化器“{name}”（已建模的是 AdamW）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="19"/>
        <source>generation (with the weight sync)</source>
        <translation>生成（含权重同步）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="20"/>
        <source>scoring</source>
        <translation>打分</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="21"/>
        <source>update (the training step)</source>
        <translation>更新（训练步）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="25"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="27"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="29"/>
        <source>partly {kind}</source>
        <translation>部分{kind}</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="80"/>
        <source>{phase} {seconds} ({words})</source>
        <translation>{phase} {seconds}（{words}）</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="87"/>
        <source>By phase, the model&apos;s time and what measured runs like this one came to (from the {runs} runs that timed each phase, so the phases&apos; ranges need not add up to the step&apos;s): {parts}</source>
        <translation>按阶段，模型时间及与此类似的实测运行为（来自为各阶段计时的 {runs} 次运行，因此各阶段范围之和不必等于整步的范围）：{parts}</translation>
    </message>
    <message>
        <source>By phase, the model&apos;s time and what measured runs like this one came to: {parts}</source>
        <translation type="vanished">按阶段，模型时间及与此类似的实测运行为：{parts}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="85"/>
        <source>one source</source>
        <translation>一个来源</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="86"/>
        <source>{n} sources</source>
        <translation>{n} 个来源</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/band_text.py" line="56"/>
        <source>Range: {likely} per step; checked against {runs} measured {frameworks} post-training runs ({objectives}) of {sources} ({names}), 8 in 10 of which came within these multiples of their estimate; the training runs&apos; band does not apply to a post-training step.</source>
        <translation>范围：每步{likely}；已对照 {sources}（{names}）的 {runs} 次 {frameworks} 后训练实测运行（{objectives}），其中每 10 次有 8 次的实测值落在其估计的这些倍数之内；训练运行的区间不适用于后训练步。</translation>
    </message>
    <message>
        <source>{phase} {words}</source>
        <translation type="vanished">{phase} {words}</translation>
    </message>
    <message>
        <source>By phase, measured runs like this one came to: {parts}</source>
        <translation type="vanished">按阶段，与此类似的实测运行为：{parts}</translation>
    </message>
    <message>
        <source>Likely {low} to {high} per step: checked against {runs} measured {frameworks} post-training runs ({objectives}) of {sources} ({names}), 8 in 10 of which measured within this spread of their estimate; the training runs&apos; band does not apply to a post-training step.</source>
        <translation type="vanished">每步可能为 {low} 至 {high}：已对照 {sources}（{names}）的 {runs} 次 {frameworks} 后训练实测运行（{objectives}），其中每 10 次有 8 次的实测值落在其估计的这一范围内；训练运行的区间不适用于后训练步。</translation>
    </message>
    <message>
        <source>{phase} {low} to {high}</source>
        <translation type="vanished">{phase} {low} 至 {high}</translation>
    </message>
    <message>
        <source>By phase, likely: {parts}</source>
        <translation type="vanished">按阶段，可能为：{parts}</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/time_band.py" line="24"/>
        <source>post-training</source>
        <translation>后训练</translation>
    </message>
    <message>
        <location filename="../../engine/timing/formulas.py" line="123"/>
        <source>interleaved 1F1B, Megatron-Core&apos;s overlapped exchanges: max(0, m x vpp - (p x vpp - 1)) steady-state slots x max(0, T_comm - a chunk&apos;s forward), each send hidden behind one chunk of the other direction and exposed only by what it outlasts that chunk&apos;s forward by (a third of the chunk&apos;s forward + backward), + the tied embedding&apos;s gradient sum once a step; the warm-up&apos;s and cool-down&apos;s sends are in the bubble</source>
        <translation>交错 1F1B，Megatron-Core 的重叠交换：max(0, m x vpp - (p x vpp - 1)) 个稳态时隙 x max(0, T_comm - 一个块的前向)，每次发送隐藏在另一方向的一个块之后，只暴露其超出该块前向的部分（块的前向 + 反向的三分之一），+ 每步一次绑定嵌入的梯度求和；预热和冷却阶段的发送计入气泡</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf_optimizer.py" line="32"/>
        <source>the critic&apos;s optimizer &apos;{name}&apos; is not one the planner models: its states are counted as the actor&apos;s optimizer&apos;s (AdamW)</source>
        <translation>规划器未建模 critic 的优化器“{name}”：其状态按 actor 的优化器（AdamW）计算</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="34"/>
        <source>{multiples} the model: likely {span}</source>
        <translation>模型值的 {multiples}：可能为 {span}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="35"/>
        <source>{low} to {high}</source>
        <translation>{low} 至 {high}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="41"/>
        <source>{multiples} the model&apos;s estimate, above it: likely {span}</source>
        <translation>模型估算值的 {multiples}，高于估算值：可能为 {span}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="42"/>
        <source>{multiples} the model&apos;s estimate, below it: likely {span}</source>
        <translation>模型估算值的 {multiples}，低于估算值：可能为 {span}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="79"/>
        <source>measured runs like this one came to {words}</source>
        <translation>与此类似的实测运行为{words}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="89"/>
        <source>likely {time}, {hours}</source>
        <translation>可能为 {time}，{hours}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="90"/>
        <source>likely {time}, {hours}, cost {cost}</source>
        <translation>可能为 {time}，{hours}，费用 {cost}</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="92"/>
        <source>{hours} GPU-hours</source>
        <translation>{hours} GPU 小时</translation>
    </message>
    <message>
        <location filename="../../engine/range_words.py" line="93"/>
        <source>1 GPU-hour</source>
        <translation>1 GPU 小时</translation>
    </message>
    <message>
        <source>likely {time}, {hours} GPU-hours</source>
        <translation type="vanished">可能为 {time}，{hours} GPU 小时</translation>
    </message>
    <message>
        <source>likely {time}, {hours} GPU-hours, cost {cost}</source>
        <translation type="vanished">可能为 {time}，{hours} GPU 小时，费用 {cost}</translation>
    </message>
    <message>
        <source>Likely: first token after {ttft}, {tpot} per output token, {rate} tokens/s; checked against {runs} measured runs of {sources} source(s)</source>
        <translation type="vanished">可能范围：首个 token 用时 {ttft}，每个输出 token {tpot}，每秒 {rate} 个 token；已对照 {sources} 个来源的 {runs} 次实测运行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="174"/>
        <source> ({engine}&apos;s own).</source>
        <translation>（{engine} 自身的实测）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="143"/>
        <source>time to first token</source>
        <translation>首 token 时间</translation>
    </message>
    <message>
        <source>Measured runs like this one came to: first token {ttft}; per output token {tpot}; tokens/s {rate}; checked against {runs} measured runs of {sources} source(s)</source>
        <translation type="vanished">与此类似的实测运行为：首个 token {ttft}；每个输出 token {tpot}；每秒 token 数 {rate}；已对照 {sources} 个来源的 {runs} 次实测运行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="134"/>
        <source>Measured runs like this one came to: first token {ttft}; per output token {tpot}; tokens/s {rate}; checked against {runs} measured runs of {sources}</source>
        <translation>与此类似的实测运行为：首个 token {ttft}；每个输出 token {tpot}；每秒 token 数 {rate}；已对照 {sources}的 {runs} 次实测运行</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="83"/>
        <location filename="../../engine/serving/speed_band.py" line="144"/>
        <source>time per output token</source>
        <translation>每个输出 token 的时间</translation>
    </message>
    <message>
        <location filename="../../engine/figure_words.py" line="55"/>
        <location filename="../../engine/serving/speed_band.py" line="145"/>
        <source>tokens/s</source>
        <translation>每秒 token 数</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="161"/>
        <source>{engine}&apos;s own: {figures}</source>
        <translation>{engine} 自己的运行：{figures}</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="163"/>
        <source>{engine} has fewer than 2 measured runs of {figures}: the runs of {family}, whose code it runs, there</source>
        <translation>{engine} 的{figures}实测运行少于 2 次：此处用其所运行代码 {family} 的运行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="175"/>
        <source> ({engine} has fewer than 2 measured runs of {figures}: all engines&apos; runs there).</source>
        <translation>（{engine} 的 {figures} 实测运行少于 2 次：该处使用所有引擎的实测运行）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="181"/>
        <source> ({engine}&apos;s own runs {regime}).</source>
        <translation>（{engine} 自己{regime}的运行）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="185"/>
        <source>{engine}&apos;s own runs {regime}: {figures}</source>
        <translation>{engine} 自己{regime}的运行：{figures}</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="188"/>
        <source>{engine} has fewer than 2 measured runs {regime} of {figures}: all of {engine}&apos;s runs there</source>
        <translation>{engine} {regime}的{figures}实测运行少于 2 次：此处用 {engine} 的全部运行</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_band.py" line="167"/>
        <location filename="../../engine/serving/speed_band.py" line="192"/>
        <source>{engine} has fewer than 2 measured runs of {figures}: all engines&apos; runs there</source>
        <translation>{engine} 的{figures}实测运行少于 2 次：此处用所有引擎的运行</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="26"/>
        <source>Split the generation engine over {tp} GPUs (its tensor parallelism)</source>
        <translation>把生成引擎拆分到 {tp} 块 GPU 上（引擎的张量并行）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="27"/>
        <source>split the generation engine over {tp} GPUs (its tensor parallelism)</source>
        <translation>把生成引擎拆分到 {tp} 块 GPU 上（引擎的张量并行）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/rl_suggest.py" line="28"/>
        <source>each GPU holds a share of the engine&apos;s weights and KV cache; fewer, larger engines, with an all-reduce in every layer</source>
        <translation>每块 GPU 只存引擎权重和 KV 缓存的一部分；引擎更少、更大，每层多一次 all-reduce</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_rl.py" line="125"/>
        <source>TRL&apos;s predefined accelerate configs (zero1-3, fsdp1, fsdp2) shard over every GPU and offload nothing; export an accelerate config (--to accelerate) for this plan and pass its path as accelerate_config.</source>
        <translation>TRL 预置的 accelerate 配置（zero1-3、fsdp1、fsdp2）在所有 GPU 上分片且不做任何卸载；请为此方案导出 accelerate 配置（--to accelerate），再把它的路径填入 accelerate_config。</translation>
    </message>
    <message>
        <source>Step time, likely (8 in 10 measured runs)</source>
        <translation type="vanished">每步时间，可能范围（10 次实测中 8 次落在其中）</translation>
    </message>
    <message>
        <source>Time per output token, likely (8 in 10 measured runs)</source>
        <translation type="vanished">每个输出 token 用时，可能范围（10 次实测中 8 次落在其中）</translation>
    </message>
    <message>
        <source>Output tokens/s, likely (8 in 10 measured runs)</source>
        <translation type="vanished">输出 token/s，可能范围（10 次实测中 8 次落在其中）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/openrlhf.py" line="202"/>
        <source>DeepSpeed&apos;s sleep mode (the trainer&apos;s states moved off the GPUs while the engine generates) is not modelled yet: the generation phase counts them as resident</source>
        <translation>DeepSpeed 的休眠模式（引擎生成时把训练器的状态移出 GPU）尚未建模：生成阶段仍把这些状态算作常驻显存</translation>
    </message>
    <message>
        <location filename="../../engine/configs/rl_common.py" line="188"/>
        <source>{flag} (the trainer&apos;s states moved to CPU memory while the engine generates) is not modelled yet: the generation phase counts them as resident</source>
        <translation>{flag}（引擎生成时把训练器的状态移到 CPU 内存）尚未建模：生成阶段仍把这些状态算作常驻显存</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_rl.py" line="103"/>
        <source>the reference&apos;s weights in CPU memory (FSDP offload) is not modelled yet: they are counted on the GPUs</source>
        <translation>参考模型的权重放在 CPU 内存中（FSDP 卸载）尚未建模：它们仍按在 GPU 上计算</translation>
    </message>
    <message>
        <location filename="../../engine/plan_card.py" line="251"/>
        <source>Output tokens/s for one sequence</source>
        <translation>1 条序列时的输出 token/s</translation>
    </message>
    <message>
        <location filename="../../engine/configs/trl.py" line="140"/>
        <source>&apos;{name}&apos; is neither one of TRL&apos;s predefined accelerate configs ({names}) nor a YAML file</source>
        <translation>“{name}”既不是 TRL 预置的 accelerate 配置（{names}），也不是 YAML 文件</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_batch.py" line="45"/>
        <source>the optimizer step&apos;s sequences per GPU need the GPU count (trainer.n_gpus_per_node), which the files do not state; set gradient accumulation in the planner</source>
        <translation>每个优化器步在每个 GPU 上的序列数需要 GPU 数量（trainer.n_gpus_per_node），而文件中未给出；请在规划器中设置梯度累积</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_batch.py" line="57"/>
        <source>{sequences} sequences per GPU an optimizer step are not a whole number of micro-batches of {micro}; set gradient accumulation in the planner</source>
        <translation>每个优化器步每个 GPU 的 {sequences} 个序列不是 {micro} 个一组的微批次的整数倍；请在规划器中设置梯度累积</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_batch.py" line="63"/>
        <source>{train} prompts generated at once, trained as {steps} optimizer steps of {mini}: the planner&apos;s step is one of them (the same generation per optimizer step on average, in a larger engine batch)</source>
        <translation>一次生成 {train} 个提示，按每步 {mini} 个训练 {steps} 个优化器步：规划器的一步是其中之一（平均每个优化器步的生成量相同，但引擎批次更大）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_batch.py" line="99"/>
        <source>{train} prompts a step are no whole number of mini-batches of {mini} prompts; the planner&apos;s step is one mini-batch</source>
        <translation>每步 {train} 个提示不是 {mini} 个提示的小批次的整数倍；规划器的一步按一个小批次计</translation>
    </message>
    <message>
        <location filename="../../engine/configs/verl_batch.py" line="111"/>
        <source>data.train_batch_size and ppo_mini_batch_size are not in this verl file: the plan&apos;s step of {sequences} sequences is no whole number of prompts of {n} completions, so verl runs its own (1,024 and 256 prompts); pick a micro-batch, gradient accumulation or GPU count whose step divides by {n}, or set them by hand.</source>
        <translation>此 verl 文件中没有 data.train_batch_size 和 ppo_mini_batch_size：计划的一步 {sequences} 条序列不是每个提示 {n} 条生成的整数个提示，因此 verl 会使用自己的默认值（1,024 和 256 个提示）；请选择使一步可被 {n} 整除的微批次、梯度累积或 GPU 数量，或手动设置它们。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/refused_step.py" line="35"/>
        <source>No step time: the generation engine does not start ({reason}), so no completion is generated and the step cannot run; its other parts (scoring, update, weight sync) would take {rest}, for reference.</source>
        <translation>无步时间：生成引擎无法启动（{reason}），因此不会生成任何补全，该步无法运行；其其余部分（打分、更新、权重同步）将需要 {rest}，仅供参考。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/apple_engines.py" line="36"/>
        <source>{engine} does not run on an Apple silicon GPU as modelled here: its macOS build runs on the CPU only and its Metal path is a separate MLX-based engine; choose MLX or llama.cpp for this Mac.</source>
        <translation>{engine} 无法按此处建模的方式在 Apple 芯片 GPU 上运行：其 macOS 版本只在 CPU 上运行，其 Metal 路径是另一个基于 MLX 的引擎；请为这台 Mac 选择 MLX 或 llama.cpp。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_regime.py" line="19"/>
        <source>with CUDA graphs</source>
        <translation>使用 CUDA 图</translation>
    </message>
    <message>
        <location filename="../../engine/serving/speed_regime.py" line="20"/>
        <source>without CUDA graphs</source>
        <translation>不使用 CUDA 图</translation>
    </message>
    <message>
        <source>Speeds within {tie} of each other count as equal: the plainer layout comes first.</source>
        <translation type="vanished">速度相差不到 {tie} 的视为相同：更简单的布局在前。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_left_out.py" line="77"/>
        <source>Not in this {fmt} file (it has no setting for them; set them by hand or in the framework&apos;s own config): {settings}.</source>
        <translation>此 {fmt} 文件未包含以下设置（该格式没有对应项；请手动设置或写入框架自己的配置）：{settings}。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_left_out.py" line="80"/>
        <source>{settings} {step}</source>
        <translation>{settings}{step}</translation>
    </message>
    <message>
        <location filename="../../engine/bounded_json.py" line="30"/>
        <source>a whole number with {digits} digits is longer than the {limit} allowed</source>
        <translation>其中一个整数有 {digits} 位，超过允许的 {limit} 位</translation>
    </message>
    <message>
        <location filename="../../engine/bounded_json.py" line="38"/>
        <source>{number} is too large for a number</source>
        <translation>{number} 作为数值过大</translation>
    </message>
    <message>
        <location filename="../../engine/bounded_json.py" line="43"/>
        <source>{name} is not a number JSON allows</source>
        <translation>{name} 不是 JSON 允许的数值</translation>
    </message>
    <message>
        <location filename="../../engine/bounded_json.py" line="47"/>
        <source>it nests lists or objects more than {limit} levels deep</source>
        <translation>其中列表或对象嵌套超过 {limit} 层</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="36"/>
        <source>mlx-lm&apos;s default optimizer adam</source>
        <translation>mlx-lm 的默认优化器 adam</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="38"/>
        <source>optimizer {name!r} is not modelled</source>
        <translation>优化器 {name!r} 未建模</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="43"/>
        <source>mlx-lm&apos;s default grad_checkpoint false</source>
        <translation>mlx-lm 的默认 grad_checkpoint 为 false</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="45"/>
        <source>mlx-lm trains in the checkpoint&apos;s own dtype (no mixed precision); taken as bf16</source>
        <translation>mlx-lm 以检查点自身的数据类型训练（无混合精度）；按 bf16 计</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="56"/>
        <source>mlx-lm&apos;s default {key} {value}</source>
        <translation>mlx-lm 的默认 {key} {value}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="65"/>
        <location filename="../../engine/configs/mlx_lm.py" line="126"/>
        <source>expected a whole number, found {n!r}</source>
        <translation>应为整数，实际为 {n!r}</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="78"/>
        <source>mlx-lm&apos;s default fine_tune_type lora</source>
        <translation>mlx-lm 的默认 fine_tune_type lora</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="80"/>
        <source>DoRA&apos;s magnitude vectors and their extra pass are not modelled: planned as LoRA</source>
        <translation>DoRA 的幅度向量及其额外计算未建模：按 LoRA 规划</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="86"/>
        <source>mlx-lm&apos;s default num_layers 16</source>
        <translation>mlx-lm 的默认 num_layers 16</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="91"/>
        <source>mlx-lm&apos;s default LoRA rank 8</source>
        <translation>mlx-lm 的默认 LoRA 秩 8</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="98"/>
        <source>mlx-lm adapts every linear layer of the adapted blocks when lora_parameters has no keys</source>
        <translation>lora_parameters 未给出 keys 时，mlx-lm 为被适配块中的每个线性层加适配器</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="110"/>
        <source>mlx-lm&apos;s default LoRA scale 20 (lora_alpha = scale x rank)</source>
        <translation>mlx-lm 的默认 LoRA scale 20（lora_alpha = scale x rank）</translation>
    </message>
    <message>
        <location filename="../../engine/configs/mlx_lm.py" line="113"/>
        <source>expected a positive number, found {n!r}</source>
        <translation>应为正数，读到 {n!r}</translation>
    </message>
    <message>
        <source>At {length} tokens each the KV cache holds {held} users at once, not the {asked} the engine is set to decode (max_num_seqs); the others wait.</source>
        <translation type="vanished">每个用户 {length} 个 token 时，KV 缓存只能同时容纳 {held} 个用户，而不是引擎设定同时解码的 {asked} 个（max_num_seqs）；其余的需要等待。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/scenario_estimate.py" line="145"/>
        <source>{engine} does not read {keys}: it keeps n_ctx = {n_ctx} tokens of KV cache (-c) for n_parallel = {slots} sequence(s) at once (-np).</source>
        <translation>{engine} 不读取 {keys}：它按 n_ctx = {n_ctx} 个 token 分配 KV 缓存（-c），供 n_parallel = {slots} 条序列同时使用（-np）。</translation>
    </message>
    <message>
        <location filename="../../engine/serving/scenario_estimate.py" line="162"/>
        <source>{gpu}: the CPU and the GPU share one pool of {pool}; the GPU may use about {share}% of it by default (the capacity shown), and the rest holds the system and the other programs.</source>
        <translation>{gpu}：CPU 与 GPU 共用一个 {pool} 的内存池；GPU 默认最多可用其中约 {share}%（即显示的容量），其余留给系统和其他程序。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_mlx_lm.py" line="87"/>
        <source>mlx-lm trains QLoRA when its model is a quantized MLX checkpoint: convert the model with mlx_lm.convert --hf-path {model} -q --q-bits {bits}, then export this plan as LoRA and set its model to the converted folder.</source>
        <translation>mlx-lm 只在模型是量化的 MLX 检查点时训练 QLoRA：先用 mlx_lm.convert --hf-path {model} -q --q-bits {bits} 转换模型，再把此计划按 LoRA 导出，并把其中的 model 设为转换后的文件夹。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_mlx_lm.py" line="96"/>
        <source>mlx-lm trains the top layers of the model (num_layers), not the bottom ones: freeze the bottom layers to export this plan.</source>
        <translation>mlx-lm 训练的是模型顶部的层（num_layers），而不是底部的层：请冻结底部的层后再导出此计划。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_mlx_lm.py" line="112"/>
        <source>mlx-lm names the adapted modules by their path in a decoder layer, and the exporter does not know the path of &apos;{name}&apos; in this model: pick all-linear to export this plan.</source>
        <translation>mlx-lm 按模块在解码器层中的路径指定适配的模块，而导出器不知道此模型中 &apos;{name}&apos; 的路径：请选择 all-linear 以导出此计划。</translation>
    </message>
    <message>
        <location filename="../../engine/configs/export_mlx_lm.py" line="118"/>
        <source>mlx-lm&apos;s mixture-of-experts layers keep their MLP projections under the experts&apos; own path: pick all-linear or the attention projections to export this plan.</source>
        <translation>mlx-lm 的混合专家层把 MLP 投影放在专家自己的路径下：请选择 all-linear 或注意力投影以导出此计划。</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="57"/>
        <source>AdamW (mlx.optimizers, compiled into the step)</source>
        <translation>AdamW（mlx.optimizers，编译进训练步）</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="58"/>
        <source>SGD (mlx.optimizers)</source>
        <translation>SGD（mlx.optimizers）</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="59"/>
        <source>SGD with momentum (mlx.optimizers)</source>
        <translation>带动量的 SGD（mlx.optimizers）</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="60"/>
        <source>Adafactor (mlx.optimizers)</source>
        <translation>Adafactor（mlx.optimizers）</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="61"/>
        <source>MLX fused attention (mx.fast.scaled_dot_product_attention)</source>
        <translation>MLX 融合注意力（mx.fast.scaled_dot_product_attention）</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="66"/>
        <source>AdamW (mlx.optimizers, eager)</source>
        <translation>AdamW（mlx.optimizers，逐算子执行）</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="67"/>
        <source>MLX attention op by op (stores b·a·s² scores)</source>
        <translation>MLX 逐算子注意力（保存 b·a·s² 分数）</translation>
    </message>
    <message>
        <location filename="../../engine/frameworks/mlx.py" line="101"/>
        <source>MLX&apos;s Metal buffer cache (mx.get_cache_memory)</source>
        <translation>MLX 的 Metal 缓冲区缓存（mx.get_cache_memory）</translation>
    </message>
    <message>
        <location filename="../../engine/models/presets.py" line="205"/>
        <location filename="../../engine/timing/preset_shapes.py" line="17"/>
        <source>Preset file {name} is damaged: {entry} is missing or is not what the estimate reads there ({found}).</source>
        <translation>预设文件 {name} 已损坏：{entry} 缺失，或不是估算在此读取的内容（{found}）。</translation>
    </message>
    <message>
        <source>Speed capped: the model alone gives this step an MFU (the share of the GPU&apos;s peak put to use) of {mfu:.0%}, near or above the most a plan may claim here ({cap:.0%}: with no published run on this GPU in this format, the best on a GPU of its family, {best:.0%} in {row} on {run_gpu} carried to this GPU&apos;s rate, + {margin:.0%}), so the estimate lowers it to {held:.0%} and the step takes longer.</source>
        <translation type="vanished">速度已封顶：仅按模型计算，此步骤的 MFU（GPU 峰值算力被用上的比例）为 {mfu:.0%}，接近或超过了这里任何方案所能声称的上限（{cap:.0%}：此 GPU 在此格式下没有已发表的运行，取同系列 GPU 上的最佳运行，{run_gpu} 上的 {row} 为 {best:.0%}，按此 GPU 的速率折算，+ {margin:.0%}），因此估算把它降到 {held:.0%}，步骤时间相应变长。</translation>
    </message>
    <message>
        <source>Speed capped: the model alone gives this step an MFU (the share of the GPU&apos;s peak put to use) of {mfu:.0%}, near or above the most a plan may claim here ({cap:.0%}: the best published run on this GPU in this format, {best:.0%} in {row}, + {margin:.0%}), so the estimate lowers it to {held:.0%} and the step takes longer.</source>
        <translation type="vanished">速度已封顶：仅按模型计算，此步骤的 MFU（GPU 峰值算力被用上的比例）为 {mfu:.0%}，接近或超过了这里任何方案所能声称的上限（{cap:.0%}：此 GPU 在此格式下已发表的最佳运行，{row} 为 {best:.0%}，+ {margin:.0%}），因此估算把它降到 {held:.0%}，步骤时间相应变长。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="49"/>
        <source>what to rent for serving needs an inference scenario: set workload to inference.</source>
        <translation>推理的租用建议需要推理场景：请把 workload 设为 inference。</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="51"/>
        <source>the engine does not start: {why}</source>
        <translation>引擎无法启动：{why}</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="52"/>
        <source>holds {per} users at once per instance: {users} users need more than {most} GPUs</source>
        <translation>每个实例同时容纳 {per} 个用户：{users} 个用户需要超过 {most} 个 GPU</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="54"/>
        <source>TPOT {tpot} ms is over the {limit} ms target</source>
        <translation>TPOT {tpot} 毫秒，超过 {limit} 毫秒的目标</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="55"/>
        <source>TTFT {ttft} s is over the {limit} s target</source>
        <translation>TTFT {ttft} 秒，超过 {limit} 秒的目标</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="56"/>
        <source>costs {cost} an hour, over the budget of {budget}</source>
        <translation>每小时 {cost}，超过 {budget} 的预算</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="57"/>
        <source>a million output tokens cost {cost}, over the budget of {budget}</source>
        <translation>每百万输出 token {cost}，超过 {budget} 的预算</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="59"/>
        <source>TPOT {tpot} ms: no faster than a smaller instance of this GPU type, which costs no more an hour</source>
        <translation>TPOT {tpot} 毫秒：不比该 GPU 型号更小的实例快，而那个实例每小时费用不更高</translation>
    </message>
    <message>
        <source>TPOT {tpot} ms: no faster than a smaller instance of this GPU type, which costs less</source>
        <translation type="vanished">TPOT {tpot} 毫秒：不比该 GPU 型号更小、更便宜的实例快</translation>
    </message>
    <message>
        <source>the GPU preset has no speed figures</source>
        <translation type="vanished">该 GPU 预设没有速度数据</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="63"/>
        <source>instances larger than the set-up&apos;s GPUs per node ({n}) not tried: a server of this card is taken to hold that many; set more GPUs per node to try them</source>
        <translation>未尝试超过本设置每节点 GPU 数（{n}）的实例：假定这种卡的服务器只装这么多块；调高每节点 GPU 数即可尝试</translation>
    </message>
    <message>
        <location filename="../../engine/planning/serve_rent.py" line="280"/>
        <source>A context of {n} tokens is longer than the model was trained for ({trained} tokens).</source>
        <translation>{n} 个 token 的上下文超过了模型训练时的长度（{trained} 个 token）。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/ceiling.py" line="126"/>
        <source>Speed capped: the model alone gives this step an MFU (the share of the GPU&apos;s peak put to use), with attention counted whole as the published runs&apos; ceiling was measured, of {mfu:.0%}, near or above the most a plan may claim here ({cap:.0%}: with no published run on this GPU in this format, the best on a GPU of its family, {best:.0%} in {row} on {run_gpu} carried to this GPU&apos;s rate, + {margin:.0%}), so the estimate lowers it to {held:.0%} and the step takes longer.</source>
        <translation>速度已封顶：仅按模型计算，此步骤的 MFU（GPU 峰值算力被用上的比例；注意力全量计入，与已发表运行的上限计法相同）为 {mfu:.0%}，接近或超过了这里任何方案所能声称的上限（{cap:.0%}：此 GPU 在此格式下没有已发表的运行，取同系列 GPU 上的最佳运行，{run_gpu} 上的 {row} 为 {best:.0%}，按此 GPU 的速率折算，+ {margin:.0%}），因此估算把它降到 {held:.0%}，步骤时间相应变长。</translation>
    </message>
    <message>
        <location filename="../../engine/timing/ceiling.py" line="132"/>
        <source>Speed capped: the model alone gives this step an MFU (the share of the GPU&apos;s peak put to use), with attention counted whole as the published runs&apos; ceiling was measured, of {mfu:.0%}, near or above the most a plan may claim here ({cap:.0%}: the best published run on this GPU in this format, {best:.0%} in {row}, + {margin:.0%}), so the estimate lowers it to {held:.0%} and the step takes longer.</source>
        <translation>速度已封顶：仅按模型计算，此步骤的 MFU（GPU 峰值算力被用上的比例；注意力全量计入，与已发表运行的上限计法相同）为 {mfu:.0%}，接近或超过了这里任何方案所能声称的上限（{cap:.0%}：此 GPU 在此格式下已发表的最佳运行，{row} 为 {best:.0%}，+ {margin:.0%}），因此估算把它降到 {held:.0%}，步骤时间相应变长。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/megatron_log.py" line="53"/>
        <source>This Megatron-LM log holds no memory report (&quot;memory (MB) | allocated: ...&quot;), which Megatron prints after the first logged iterations: only its step time is compared.</source>
        <translation>这份 Megatron-LM 日志没有显存报告（“memory (MB) | allocated: ...”，Megatron 在最初几次记录的迭代之后打印）：只比较每步时间。</translation>
    </message>
    <message>
        <location filename="../../engine/diagnosis/megatron_log.py" line="68"/>
        <source>Measured step {measured} (Megatron&apos;s elapsed time per iteration, the median after the first logged interval); the plan&apos;s step {planned}, so the run took {ratio} times the plan&apos;s time. To time this plan by it, enter {measured} as the measured step time (Time and cost tab).</source>
        <translation>实测每步 {measured}（Megatron 的 elapsed time per iteration，第一个记录区间之后的中位数）；方案的每步 {planned}，即实际用时是方案的 {ratio} 倍。要按它校准本方案，请在“时间与费用”页把 {measured} 填为实测每步时间。</translation>
    </message>
    <message>
        <location filename="../../engine/posttraining/estimate.py" line="44"/>
        <source>none on the generation engine&apos;s own GPUs: the engine takes its share up front and its start-up check judges it</source>
        <translation>生成引擎自己的 GPU 上没有：引擎启动时先占下它的份额，由它的启动检查来判断</translation>
    </message>
    <message>
        <location filename="../../engine/timing/term_formulas.py" line="20"/>
        <source>gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP runs under pipelining) not hidden behind forward and backward, + the compute the hidden part displaces: on this Hopper GPU a GEMM of more CTAs than the SMs NCCL leaves (gpu_sms - nccl_sms) runs those beyond as a second wave and loses 1/2, one of no more loses nothing, an MoE layer&apos;s GEMMs 1/2 (displaced_share: over the layer&apos;s GEMM FLOPs) of the compute-bound work, 3 x link / HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL&apos;s small-message latency</source>
        <translation>未被前向和反向掩盖的梯度 all-reduce / reduce-scatter（+ 每个微批次的 ZeRO-3 权重收集；FSDP 在流水线下运行时每步一次），+ 被掩盖部分挤占的计算：在这块 Hopper GPU 上，CTA 多于 NCCL 剩下的 SM（gpu_sms - nccl_sms）的 GEMM 把超出的 CTA 作为第二波运行，损失 1/2，不多于的 GEMM 不受影响，MoE 层的 GEMM 取 1/2（displaced_share：按该层 GEMM 的 FLOPs 加权），作用于计算密集型工作；显存带宽受限型工作按 3 × 链路带宽 / HBM 带宽；2021 年 4 月的 DeepSpeed：每个参数各自同步地收集和 reduce-scatter，每个 rank 一次拷贝启动；+ Megatron 下的 fp8 延迟缩放：grad_accum × vpp × 2 次 amax all-reduce，跨 tp × cp × dp 个 rank（tp_only_amax_red：tp × cp），按 NCCL 小消息延迟计算</translation>
    </message>
    <message>
        <location filename="../../engine/timing/term_formulas.py" line="30"/>
        <source>gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP runs under pipelining) not hidden behind forward and backward, + the compute the hidden part displaces: nccl_sms / gpu_sms (displaced_share) of the compute-bound work, 3 x link / HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL&apos;s small-message latency</source>
        <translation>未被前向和反向掩盖的梯度 all-reduce / reduce-scatter（+ 每个微批次的 ZeRO-3 权重收集；FSDP 在流水线下运行时每步一次），+ 被掩盖部分挤占的计算：计算密集型工作按 nccl_sms / gpu_sms（displaced_share），显存带宽受限型工作按 3 × 链路带宽 / HBM 带宽；2021 年 4 月的 DeepSpeed：每个参数各自同步地收集和 reduce-scatter，每个 rank 一次拷贝启动；+ Megatron 下的 fp8 延迟缩放：grad_accum × vpp × 2 次 amax all-reduce，跨 tp × cp × dp 个 rank（tp_only_amax_red：tp × cp），按 NCCL 小消息延迟计算</translation>
    </message>
    <message>
        <location filename="../../engine/timing/term_formulas.py" line="39"/>
        <source>gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP runs under pipelining) not hidden behind forward and backward, + the compute the hidden part displaces: none of the compute-bound work (the SMs NCCL holds on this GPU, or its SM count, are not known), 3 x link / HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL&apos;s small-message latency</source>
        <translation>未被前向和反向掩盖的梯度 all-reduce / reduce-scatter（+ 每个微批次的 ZeRO-3 权重收集；FSDP 在流水线下运行时每步一次），+ 被掩盖部分挤占的计算：计算密集型工作不计挤占（不知道 NCCL 在这款 GPU 上占用的 SM 数或它的 SM 总数），显存带宽受限型工作按 3 × 链路带宽 / HBM 带宽；2021 年 4 月的 DeepSpeed：每个参数各自同步地收集和 reduce-scatter，每个 rank 一次拷贝启动；+ Megatron 下的 fp8 延迟缩放：grad_accum × vpp × 2 次 amax all-reduce，跨 tp × cp × dp 个 rank（tp_only_amax_red：tp × cp），按 NCCL 小消息延迟计算</translation>
    </message>
    <message>
        <location filename="../../engine/timing/term_formulas.py" line="47"/>
        <source>bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting for the host: Megatron&apos;s fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp; Megatron-Core&apos;s step: + step_bytes_per_param per owned parameter (the gradient norm, the copy into the 16-bit weights) + step_grad_buffer_passes passes over the rank&apos;s whole gradient buffer, every parameter it trains (its zeroing and the NaN check&apos;s norm) + the cast of the owned gradients to fp32 where the buffer is narrower</source>
        <translation>优化器对每个自有参数读写的字节数 / 可达显存带宽，+ GPU 等待主机的时间：Megatron 的 fp8 权重（fp8_param_gather，tensorwise）在梯度范数往返之后更新，每个 fp8 权重 3 次 Python 调用 + 跨 dp × cp 的 amax all-reduce；Megatron-Core 的步骤：+ 每个自有参数 step_bytes_per_param（梯度范数、拷贝进 16 位权重）+ 对该 rank 整个梯度缓冲区（其训练的每个参数）的 step_grad_buffer_passes 遍读写（清零与 NaN 检查的范数）+ 缓冲区窄于 fp32 时把自有梯度转换为 fp32</translation>
    </message>
    <message>
        <location filename="../../engine/timing/term_formulas.py" line="55"/>
        <source>bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting for the host: Megatron&apos;s fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp; Apex&apos;s DistributedFusedAdam (optimizer_step): + step_bytes_per_param per owned parameter (its shard&apos;s gradient norm) + step_grad_buffer_passes pass over the rank&apos;s whole gradient buffer (its zeroing); it writes the 16-bit weights itself: no copy, no gradient cast, no NaN check over the buffer</source>
        <translation>优化器对每个自有参数读写的字节数 / 可达显存带宽，+ GPU 等待主机的时间：Megatron 的 fp8 权重（fp8_param_gather，tensorwise）在梯度范数往返之后更新，每个 fp8 权重 3 次 Python 调用 + 跨 dp × cp 的 amax all-reduce；Apex 的 DistributedFusedAdam（optimizer_step）：+ 每个自有参数 step_bytes_per_param（其分片的梯度范数）+ 对该 rank 整个梯度缓冲区的 step_grad_buffer_passes 遍读写（清零）；它自己写入 16 位权重：没有拷贝，没有梯度转换，也没有对缓冲区的 NaN 检查</translation>
    </message>
    <message>
        <location filename="../../engine/timing/term_formulas.py" line="62"/>
        <source>bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting for the host: bitsandbytes&apos; sync after each tensor; + the framework&apos;s own passes around its step: step_bytes_per_param per owned parameter (its gradient buffer&apos;s zeroing and scaling, the gradient norm, the copy into the 16-bit weights)</source>
        <translation>优化器对每个自有参数读写的字节数 / 可达显存带宽，+ GPU 等待主机的时间：bitsandbytes 在每个张量之后的同步；+ 框架在优化器步骤前后自己的遍历：每个自有参数 step_bytes_per_param（梯度缓冲区的清零与缩放、梯度范数、拷贝进 16 位权重）</translation>
    </message>
    <message>
        <location filename="../../engine/timing/term_formulas.py" line="67"/>
        <source>bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the gradients read clip_passes times more for the gradient norm and clipping, + the GPU waiting for the host: bitsandbytes&apos; sync after each tensor; Megatron&apos;s fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp</source>
        <translation>优化器对每个自有参数读写的字节数 / 可达显存带宽，+ 为梯度范数与裁剪再读 clip_passes 遍梯度，+ GPU 等待主机的时间：bitsandbytes 在每个张量之后的同步；Megatron 的 fp8 权重（fp8_param_gather，tensorwise）在梯度范数往返之后更新，每个 fp8 权重 3 次 Python 调用 + 跨 dp × cp 的 amax all-reduce</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_time.py" line="20"/>
        <source>not read by the planner: its step time hides the data-parallel reduce-scatter and all-gather behind the backward and the next forward as Megatron&apos;s recipes run them, with or without this flag</source>
        <translation>规划器不读取：无论有没有这个参数，它的步时都按 Megatron 配方的做法，把数据并行的 reduce-scatter 和 all-gather 藏在反向和下一次前向的计算背后</translation>
    </message>
    <message>
        <location filename="../../engine/configs/megatron_time.py" line="23"/>
        <source>not read by the planner: its step time adds the weight gradients into the fp32 main gradients inside the GEMM (gradient accumulation fusion, on by default), with or without this flag</source>
        <translation>规划器不读取：无论有没有这个参数，它的步时都按在 GEMM 内把权重梯度累加进 fp32 主梯度计算（梯度累加融合，默认开启）</translation>
    </message>
    <message>
        <location filename="../../engine/planning/listing.py" line="21"/>
        <source>Speeds within {tie} of each other count as equal: the plainest layout within {tie} of the fastest comes first, the others fastest first.</source>
        <translation>速度相差不到 {tie} 的视为相同：与最快者相差不到 {tie} 的布局中最简单的排第一，其余按速度从快到慢排列。</translation>
    </message>
</context>
<context>
    <name>report</name>
    <message>
        <location filename="../../engine/report.py" line="24"/>
        <source>Steady state: the second training step, optimizer states alive; gradients freed by zero_grad(set_to_none=True).</source>
        <translation>稳态：第二个训练步骤，优化器状态已存在；梯度由 zero_grad(set_to_none=True) 释放。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="28"/>
        <source>Peak allocated memory is what {counter} reports; context, fragmentation and the reserve are added on top.</source>
        <translation>峰值分配显存即 {counter} 报告的数值；运行时上下文、碎片和安全余量另外叠加。</translation>
    </message>
    <message>
        <source>Sequences are packed or unpadded (no b x s x s attention mask is materialised).</source>
        <translation type="vanished">序列经过打包或不含填充（不会生成 b x s x s 的注意力掩码）。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="32"/>
        <source>No b x s x s attention mask is materialised; sequences are laid out as the plan&apos;s packing says (padded ones count every position up to the sequence length).</source>
        <translation>不会生成 b x s x s 的注意力掩码；序列按方案的打包方式排布（填充的序列按序列长度计入每个位置）。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="34"/>
        <source>The detailed estimator is checked against traced Hugging Face training steps (docs/accuracy.md).</source>
        <translation>detailed 估算器已与追踪得到的 Hugging Face 训练步骤核对（见 docs/accuracy.md）。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="38"/>
        <source>The engine&apos;s own accounting at start-up (vLLM&apos;s profile run and KV blocks, SGLang&apos;s mem_fraction_static, llama.cpp&apos;s buffers from n_ctx); settings left unset take the engine&apos;s defaults.</source>
        <translation>按引擎启动时自己的核算（vLLM 的性能分析运行和 KV 块、SGLang 的 mem_fraction_static、llama.cpp 按 n_ctx 分配的缓冲区）；未设置的参数取引擎的默认值。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="41"/>
        <source>Speed is a roofline with the time model&apos;s efficiencies, not a measurement.</source>
        <translation>速度是采用时间模型效率的屋顶线估算，而非实测。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="117"/>
        <source>{verdict}: {total} of {capacity} per GPU on {n} x {gpu} training and {engine_total} per GPU on {engine_n} x {gpu} running the generation engine ({room}); estimator {estimator}.</source>
        <translation>{verdict}：{n} x {gpu} 训练，每块 GPU 用 {total}，共 {capacity}；{engine_n} x {gpu} 运行生成引擎，每块 GPU 用 {engine_total}（{room}）；估算方法 {estimator}。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="120"/>
        <source>{verdict}: {total} of {capacity} per GPU on {n} x {gpu} ({room}); estimator {estimator}.</source>
        <translation>{verdict}：{n} x {gpu} 上每块 GPU 用 {total}，共 {capacity}（{room}）；估算方法 {estimator}。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="136"/>
        <source>overhead</source>
        <translation>额外开销</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="138"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="139"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="140"/>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="146"/>
        <source>Phase peaks: {phases} (peak: {peak}).</source>
        <translation>各阶段峰值：{phases}（峰值出现在：{peak}）。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="155"/>
        <source>component</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="155"/>
        <source>share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="156"/>
        <source>lives in</source>
        <translation>所在阶段</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="159"/>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="160"/>
        <source>Breakdown (busiest GPU, at the peak)</source>
        <translation>明细（最满的 GPU，峰值时刻）</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="161"/>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="162"/>
        <source>Assumptions</source>
        <translation>假设</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="163"/>
        <source>setting</source>
        <translation>设置项</translation>
    </message>
    <message>
        <source>key</source>
        <translation type="vanished">键</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="164"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="165"/>
        <source>in the scenario file</source>
        <translation>场景文件中的写法</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="182"/>
        <source>KV cache: {tokens} tokens in {blocks} blocks of {block}; maximum concurrency at {length} tokens per request: {users:.2f}x; longest context for one request: {longest} tokens.</source>
        <translation>KV 缓存：{tokens} 个 token，分为 {blocks} 个块，每块 {block} 个；每个请求 {length} 个 token 时的最大并发：{users:.2f}x；单个请求的最长上下文：{longest} 个 token。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="192"/>
        <source>Speed at {users} sequences: time to first token {ttft}, {tpot} per output token, {tps} tokens/s.</source>
        <translation>{users} 条序列时的速度：首个 token 用时 {ttft}，每个输出 token {tpot}，{tps} token/s。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="173"/>
        <source>Post-training step, allocated per phase: {phases} (peak: {peak}).</source>
        <translation>后训练步骤，各阶段已分配显存：{phases}（峰值出现在：{peak}）。</translation>
    </message>
    <message>
        <source>Time and cost</source>
        <translation type="vanished">时间与费用</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="184"/>
        <source>KV cache: {tokens} tokens; maximum concurrency at {length} tokens per request: {users:.2f}x; longest context for one request: {longest} tokens.</source>
        <translation>KV 缓存：{tokens} 个 token；每个请求 {length} 个 token 时的最大并发：{users:.2f}x；单个请求的最长上下文：{longest} 个 token。</translation>
    </message>
    <message>
        <location filename="../../engine/report.py" line="194"/>
        <source>Speed for one sequence: time to first token {ttft}, {tpot} per output token, {tps} tokens/s.</source>
        <translation>1 条序列时的速度：首个 token 用时 {ttft}，每个输出 token {tpot}，{tps} token/s。</translation>
    </message>
</context>
</TS>
