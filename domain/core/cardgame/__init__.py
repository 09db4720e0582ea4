"""The card-game kernel shared by every card game (rules/ files of King, 1000, Kings in the Corner)."""
