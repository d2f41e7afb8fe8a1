import CJSONC
