import CBox2D
