import Wire
