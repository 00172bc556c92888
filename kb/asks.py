"""What kind of answer a question asks for, read from its words: a reason, a definition, a drawback, a figure or a
time. Each decides how an answer is composed (which sentences are quoted, whether the fact table is asked)."""

from __future__ import annotations

import re

WHY = re.compile(r"\bwhy\b|\bhow come\b|(?<![а-яё])(?:почему|зачем|отчего)(?![а-яё])|为什么|为啥|为何|怎么会")
# What a thing is or is for ("what are the CC-Cores used for?", "что такое LNC", "CC-Core 是干什么用的") asks for a
# definition, not a figure, though the thing is an attribute's word ("NeuronCore" counts cores); never where a
# figure is asked too ("what is the price for H100", "сколько памяти ... и для чего").
DEFINES = re.compile(r"^\W*what (?:is|are) (?:an? |the )?[\w-]+(?: [\w-]+){0,3} used for\W*$|"
                     r"^\W*what (?:does|do) (?:an? |the )?[\w-]+(?: [\w-]+){0,3} do\W*$|"
                     r"что такое|для чего (?:нуж|служ|использ)\w*|(?<![а-яё])зачем нуж\w*|"
                     r"什么是|是干什么|干什么用|做什么用|有什么用|起什么作用")
# A drawback asked ("the biggest problem with TPUs", "what's the downside of", "чем плохо", "有什么缺点").
DRAWBACK = re.compile(
    r"\b(?:biggest|main|major|largest|greatest|key|primary|chief|worst)\s+(?:[a-z-]+\s+)?(?:problems?|issues?|drawbacks?"
    r"|downsides?|limitations?|weakness(?:es)?|disadvantages?)\b|\bwhat(?:'s| is| are) (?:the )?(?:catch|downsides?|drawbacks?"
    r"|disadvantages?)\b|\bwhat(?:'s| is) (?:wrong|bad) (?:with|about)\b|(?:最大|主要)的?(?:问题|缺点|短板|劣势|弊端)|"
    r"有什么(?:缺点|坏处|弊端|不足|风险)|(?:缺点|坏处|弊端)是什么|(?<![а-яё])(?:главн|основн|сам\w+ больш|крупнейш|ключев)\w* "
    r"(?:проблем|недостат|минус)\w*|(?<![а-яё])чем (?:плох|опасн|рискован)\w*|(?<![а-яё])в ч[её]м (?:минус|недостат|подвох)\w*")
# What to do or set is asked ("what do I need to set in the kernel so that the MI300X gets good matmul performance",
# "что нужно настроить", "需要设置什么"): an action, not a figure, though an attribute is named as the aim.
ACTION = re.compile(r"\bwhat (?:do|should|must|can) (?:i|we|you) (?:[a-z]+ )?(?:need to |have to )?(?:set|do|configure|change|"
                    r"enable|disable|install|tune|tweak|check|turn on|turn off)\b|\bhow (?:do|should|can) (?:i|we|you) (?:set|configure|tune|"
                    r"enable)\b|\bwhat (?:settings?|knobs?) (?:should|do|to|must)\b|"
                    r"(?<![а-яё])что (?:[а-яё]+ )?(?:нужно|надо|следует|стоит|необходимо) (?:[а-яё]+ )?(?:сделать|"
                    r"настроить|включить|выключить|отключить|установить|изменить|поменять|проверить|подкрутить)|"
                    r"(?<![а-яё])что (?:проверить|настроить|подкрутить)(?![а-яё])|"
                    r"(?:需要|应该|要)(?:设置|做|配置|修改|开启|关闭|调整)什么|怎么(?:设置|配置|调)|"
                    # "有什么要调的", "要检查哪些": something to tune or check, no figure
                    r"有什么(?:需要|要|该|可以)?(?:调|调整|调优|设置|配置|修改|检查)|(?:调|调整|调优|设置|配置|检查)(?:什么|哪些)")
# How a problem is got around ("how does GB200 NVL72 get around ...", "как это решает GB200 NVL72", "GB200 NVL72 怎么解决的"):
# a means, not a figure, though the problem is named by an attribute ("compute-bound", "bandwidth").
# ("handle", "deal with", "справляется", "обходит" are no such words: "how does the H100 handle FP8", "как быстро ...
# справляется", "как сильно MI300X обходит H100" ask figures.)
MEANS = re.compile(r"\bhow (?:does|do|did|can|could|would|will|is|are)\b[^?.]{0,80}?\b(?:get(?:s|ting)? around|solve[sd]?|fix(?:es|ed)?|"
                   r"overcome[s]?|avoid(?:s|ed)?|mitigate[sd]?|work(?:s)? around|compensate[sd]? for|make[s]? up for)\b|"
                   r"(?<![а-яё])как(?!\s+(?:быстро|сильно|дорого|много|хорошо))\b[^?.]{0,80}?(?<![а-яё])(?:реша\w*|решить|решен\w*|"
                   r"обойти|избега\w*|избежать|компенсир\w*)|(?:怎么|如何|怎样)(?:来)?(?:解决|避免|克服|绕过|弥补|应对|缓解)")
# How to find a figure out oneself ("How do I figure out what throughput is achievable?", "как самому посчитать
# пропускную способность HBM", "怎么计算 HBM 带宽"): a method, which the passages give, not the figure.
METHOD = re.compile(r"\bhow (?:do|can|could|should|would|to) (?:i |we |you |one )?(?:\w+ )?(?:figure out|find out|work out|"
                    r"measure|calculate|compute|estimate|derive|determine|benchmark)\b|(?<![а-яё])как (?:мне |нам |самому |"
                    r"самим )?(?:посчитать|подсчитать|рассчитать|вычислить|измерить|оценить|вывести)(?![а-яё])|"
                    r"(?:怎么|如何|怎样)(?:自己)?(?:去)?(?:算|计算|测|测量|估算|推算|衡量)")
# Where something lies ("主要的成本在哪里", "в чём основные затраты", "where does the cost come from"): what it is
# spent on or made of, not a figure ("в чём разница" asks a difference).
WHERE = re.compile(r"\bwhere (?:is|are|does|do|lies?)\b|(?<![а-яё])в ч[её]м(?![а-яё])(?!\s+(?:разниц|отлич|различ))|在哪(?:里|儿)?")
# A figure asked in so many words ("how much", "сколько", "多少", 几 but not 几乎 "almost"); a word of rate asks one
# too (see ``rate_asked``).
FIGURE_ASKED = re.compile(r"\bhow (?:much|many|fast|big|large)\b|(?<![а-яё])скольк|каков|какой объ|多少|几(?!乎)|是多少")
# A question that asks when: "when" before a verb ("when did", not "when working with", nor "when should I use",
# which asks a condition, though "when does X become the bottleneck" still reads as a time),
# "when" or "когда" opening a question that goes on in no other clause ("Когда Intel купила Habana, какие продукты ..."
# asks the products), "what year", "в каком году", 什么时候 / 何时 / 哪年.
WHEN = re.compile(r"^\W*when\b(?!\s+(?:should|must|would|to)\b)(?![^,，]*[,，])|\bwhen (?:did|does|do|was|were|will|is|are)\b|\b(?:what|which) year\b|"
                  r"^\W*когда(?![а-яё])(?![^,，]*[,，])|(?<![а-яё])в как(?:ом|ие) (?:году|годы|месяце)|"
                  r"с какого (?:года|времени)|什么时候|何时|哪年|哪一年|几月|几号", re.IGNORECASE)
