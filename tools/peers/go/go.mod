module weft/peers/go

go 1.19
