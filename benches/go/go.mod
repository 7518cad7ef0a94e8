module perfbench

go 1.19
